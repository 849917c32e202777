package dev.weft.time;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/** Writes expressions as the JSON of {@code weft time parse --json}, by hand: the module needs no JSON library. */
public final class TimeJson {

    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ssxxx");

    private TimeJson() {}

    /**
     * One expression as a JSON object: {@code text}, {@code type}, {@code value} and {@code grain} for
     * instants, {@code from}, {@code to}, {@code end} (when it is over) and {@code grain} for intervals, {@code rrule}, {@code value}
     * (the first occurrence) and {@code grain} for recurrences, and {@code span}.
     */
    public static String toJson(TimeExpression e) {
        StringBuilder b = new StringBuilder("{");
        field(b, "text", e.text());
        switch (e) {
            case TimeExpression.Instant i -> {
                field(b, "type", "instant");
                field(b, "value", iso(i.value()));
                field(b, "grain", i.grain().label());
            }
            case TimeExpression.Interval i -> {
                field(b, "type", "interval");
                field(b, "from", iso(i.from()));
                field(b, "to", iso(i.to()));
                field(b, "end", iso(i.end()));
                field(b, "grain", i.grain().label());
            }
            case TimeExpression.Recurrence r -> {
                field(b, "type", "recurrence");
                field(b, "rrule", r.toRrule());
                field(b, "value", iso(r.first()));
                field(b, "grain", r.grain().label());
            }
        }
        b.append(",\"span\":[")
                .append(e.span().start())
                .append(',')
                .append(e.span().end())
                .append("]}");
        return b.toString();
    }

    /** The JSON of a whole-text parse: the expression, or {@code {"text":…,"type":"none"}}. */
    public static String toJson(Optional<TimeExpression> e, String text) {
        return e.map(TimeJson::toJson).orElseGet(() -> none(text));
    }

    /** The JSON for a text with no time in it. */
    public static String none(String text) {
        StringBuilder b = new StringBuilder("{");
        field(b, "text", text);
        field(b, "type", "none");
        return b.append('}').toString();
    }

    /** A JSON error object: {@code {"error":{"code":…,"message":…}}}. */
    public static String error(String code, String message) {
        StringBuilder b = new StringBuilder("{\"error\":{\"code\":");
        quote(b, code);
        b.append(",\"message\":");
        quote(b, message);
        return b.append("}}").toString();
    }

    /** The ISO-8601 form used for values: {@code 2026-11-22T09:00:00+02:00}. */
    public static String iso(ZonedDateTime t) {
        return ISO.format(t);
    }

    private static void field(StringBuilder b, String name, String value) {
        if (b.length() > 1) {
            b.append(',');
        }
        quote(b, name);
        b.append(':');
        quote(b, value);
    }

    /** Appends a JSON string literal. */
    public static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
