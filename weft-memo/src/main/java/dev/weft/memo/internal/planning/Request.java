package dev.weft.memo.internal.planning;

import dev.weft.time.Span;
import dev.weft.time.TimeExpression;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One request of a message as the readers see it: its words without what people say before a
 * request ({@code text}), the language, the user's now, the times found in it, the one it is about,
 * how long it lasts when it says so, and what is left once those are taken out ({@code rest}: the
 * words that name the task, the event, the list).
 */
public record Request(
        String text,
        String language,
        ZonedDateTime now,
        List<TimeExpression> times,
        Optional<Times.Chosen> chosen,
        Optional<Times.Length> length,
        List<Words.Kept> kept,
        String rest) {
    public Request {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(now, "now");
        times = List.copyOf(times);
        Objects.requireNonNull(chosen, "chosen");
        Objects.requireNonNull(length, "length");
        kept = List.copyOf(kept);
        Objects.requireNonNull(rest, "rest");
    }

    /** The request of {@code text}, whose time expressions are {@code times}. */
    public static Request of(String text, String language, ZonedDateTime now, List<TimeExpression> times) {
        List<Words.Kept> kept = Words.exceptions(text, language);
        // A time inside what the request keeps out ("…except Friday") is not the time it is about.
        List<TimeExpression> about = times.stream()
                .filter(t -> kept.stream().noneMatch(k -> inside(t.span(), k.span())))
                .toList();
        Optional<Times.Chosen> chosen = Times.choose(about, now, language);
        Optional<Times.Length> length = Times.length(text, times);
        List<Span> said = new ArrayList<>();
        chosen.ifPresent(c -> said.addAll(c.spans()));
        length.ifPresent(l -> said.add(l.span()));
        kept.forEach(k -> said.add(k.span()));
        return new Request(text, language, now, times, chosen, length, kept, Times.without(text, said));
    }

    private static boolean inside(Span span, Span of) {
        return span.start() >= of.start() && span.end() <= of.end();
    }

    /**
     * The times said inside what the request keeps out, by the words kept: "except Friday" keeps a
     * day out, not an event named Friday.
     */
    Optional<TimeExpression> keptTime(Words.Kept kept) {
        return times.stream()
                .filter(t -> t.text().replaceAll("(?iU)\\bthe\\b|^ה-?|^ב-?", "").matches("(?sU).*\\p{L}.*"))
                .filter(t -> inside(t.span(), kept.span()))
                .filter(t -> t.text().strip().length() + 4 >= kept.said().length())
                .findFirst();
    }

    /** The time the request is about. */
    public Optional<TimeExpression> when() {
        return chosen.map(Times.Chosen::time);
    }

    boolean hebrew() {
        return language.equals("he");
    }
}
