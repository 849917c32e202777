package dev.weft.memo.internal.planning;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.language.NumberWords;
import dev.weft.memo.Planner.Referent;
import dev.weft.time.Grain;
import dev.weft.time.TimeExpression;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A follow-up about what the user's last request made, changed or found ({@link Referent}): "move it to
 * 10", "make it 11 instead", "push it by an hour", "call it standup", "delete it", "mark it done",
 * "תעביר את זה ל-10", "בעצם ב-11", "תדחה אותה בשעה", "תמחק את זה". Read only when there is such a
 * thing: without one, "it" names nothing and the message is read as any other.
 */
public final class FollowUps {
    private static final int FLAGS = Words.FLAGS;
    private static final DateTimeFormatter ISO = DateTimeFormatter.ISO_OFFSET_DATE_TIME;

    /** "it", or "that" and "this" when no noun follows them ("move that meeting" names another). */
    private static final String IT_EN =
            "(?:(?:it|them)\\b|(?:that|this)(?:\\s+one)?(?=\\s+(?:to|at|by|for|on|in|until|till|back"
                    + "|forward|up|earlier|later|an?|half|off|as|done|instead|please|\\d)\\b|\\s*$|\\s*[.,!?]))";

    private static final String IT_HE = "(?:את\\s+)?(?:זה|זאת|אותו|אותה|אותם|אותן)";

    /** "delete it", "cancel that one", "get rid of it", "תמחק את זה", "תבטלי אותה". */
    private static final Pattern DELETE = Pattern.compile(
            "^(?:please\\s+|(?:ac?t?u?a?l+y|actaully)\\s+|no\\s+)?(?:delete|remove|cancel|scrap|drop|erase|get rid of|forget(?:\\s+about)?)\\s+"
                    + IT_EN + "(?:\\s+please)?[.!]*$"
                    + "|^(?:בבקשה\\s+|בעצם\\s+)?(?:תמחק|תמחקי|מחק|מחקי|תבטל|תבטלי|תוריד|תורידי|הורד|תשכח|תשכחי|תעיף|תעיפי)\\s+"
                    + IT_HE + "(?:\\s+בבקשה)?[.!]*$",
            FLAGS);

    /** "mark it done", "tick it off", "it's done", "סמן את זה כבוצע", "סיימתי את זה". */
    private static final Pattern COMPLETE = Pattern.compile(
            "^(?:please\\s+)?(?:mark|tick|check|cross)\\s+" + IT_EN
                    + "\\s+(?:off|as\\s+done|done|as\\s+complete[d]?|complete[d]?|as\\s+finished)[.!]*$"
                    + "|^(?:it's|it\\s+is|that's|that\\s+is)\\s+(?:done|finished)[.!]*$|^(?:done|finished)\\s+with\\s+"
                    + IT_EN + "[.!]*$"
                    + "|^(?:תסמן|תסמני|סמן|סמני)\\s+" + IT_HE + "\\s+(?:כבוצע|כבוצעה|כגמור|כגמורה|כהושלם)[.!]*$"
                    + "|^(?:סיימתי|עשיתי|גמרתי)\\s+" + IT_HE + "[.!]*$",
            FLAGS);

    /** "call it standup", "rename it to standup", "change its name to …", "תקרא לזה …", "תשנה את השם ל…". */
    private static final Pattern RENAME = Pattern.compile(
            "^(?:please\\s+|(?:ac?t?u?a?l+y|actaully)\\s+)?(?:call|name|rename|retitle|title)\\s+" + IT_EN
                    + "(?:\\s+to)?\\s+(?<en>.+)$"
                    + "|^(?:please\\s+|(?:ac?t?u?a?l+y|actaully)\\s+)?change\\s+(?:its|the)\\s+(?:name|title)\\s+to\\s+(?<en2>.+)$"
                    + "|^(?:בעצם\\s+)?(?:תקרא|תקראי|קרא|קראי)\\s+(?:לזה|לו|לה)\\s+(?<he>.+)$"
                    + "|^(?:בעצם\\s+)?(?:תשנה|תשני|שנה|שני)\\s+(?:את\\s+)?(?:השם|הכותרת)(?:\\s+(?:שלו|שלה))?\\s+ל-?\\s*(?<he2>.+)$",
            FLAGS);

    /** A change of time said of "it": "move it", "push that", "make it", "תעביר את זה", "תדחה אותה". */
    private static final Pattern MOVE_IT = Pattern.compile(
            "^(?:please\\s+|(?:ac?t?u?a?l+y|actaully)\\s+|no\\s*,?\\s+|wait\\s*,?\\s+|oh\\s*,?\\s+|sorry\\s*,?\\s+|can you\\s+|could you\\s+)*"
                    + "(?:move|push|pull|shift|bump|change|make|reschedule|postpone|delay|set|put|switch|bring)\\s+"
                    + IT_EN
                    + "|^(?:בבקשה\\s+|בעצם\\s+|לא\\s*,?\\s+|רגע\\s*,?\\s+|סליחה\\s*,?\\s+|אפשר\\s+)*"
                    + "(?:תעביר|תעבירי|העבר|העבירי|להעביר|תזיז|תזיזי|הזז|הזיזי|להזיז|תדחה|תדחי|דחה|דחי|לדחות|תקדים|תקדימי|הקדם"
                    + "|הקדימי|להקדים|תשנה|תשני|שנה|שני|לשנות|תקבע|תקבעי|קבע|תעשה|תעשי)\\s+"
                    + IT_HE + "(?=\\s|$|[.,!?])",
            FLAGS);

    /** A correction that says only the new time: "actually 11", "make that 5pm", "no, at 6", "בעצם ב-11". */
    private static final Pattern CORRECTION = Pattern.compile(
            "^(?:ac?t?u?a?l+y|actaully|no|nope|wait|sorry|oops|oh|rather|make\\s+that|change\\s+that\\s+to|scratch\\s+that)\\b"
                    + "|\\binstead\\b"
                    + "|^(?:בעצם|לא|רגע|סליחה|אופס|אה|עדיף)(?=\\s|,|$)|במקום(?:\\s+זה)?\\s*[.!]*$",
            FLAGS);

    /** An hour said as a bare number after "to", "at", "ל-", "ב-": "to 10", "at 11:30", "ל-10", "ב11". */
    private static final Pattern BARE_HOUR = Pattern.compile(
            "(?:^|\\s|,)(?:to|at|for|till|until|around|ל-?|ב-?|לשעה\\s+|בשעה\\s+)?\\s*(?<h>\\d{1,2})(?:[:.](?<m>[0-5]\\d))?"
                    + "\\s*(?<ampm>am|pm|a\\.m\\.|p\\.m\\.)?(?=\\s*(?:instead|במקום|please|בבקשה|o'?clock)?\\s*[.!?]*$|\\s*,)",
            FLAGS);

    /** How far to shift: "by an hour", "half an hour later", "30 minutes earlier", "בשעה", "בחצי שעה", "ב-20 דקות". */
    private static final Pattern SHIFT = Pattern.compile(
            "(?:\\bby\\s+|\\b)(?<en>an?|one|two|three|half\\s+an?|\\d{1,3})\\s*(?<unit>hours?|hrs?|h|minutes?|mins?|m)\\b"
                    + "|(?:^|\\s)ב?-?(?<he>חצי\\s+שעה|רבע\\s+שעה|שעתיים|שעה(?:\\s+וחצי)?|שלוש\\s+שעות|\\d{1,3}\\s*(?:דקות|דק'|שעות))"
                    + "(?=\\s|$|[.,!?])",
            FLAGS);

    private static final Pattern EARLIER = Pattern.compile(
            "\\b(?:earlier|sooner|forward|pull|bring)\\b|(?:תקדים|תקדימי|הקדם|הקדימי|להקדים|מוקדם|קודם)", FLAGS);

    /** A length rather than a shift: "make it 2 hours long", "for 90 minutes", "למשך שעה". */
    private static final Pattern LENGTH = Pattern.compile(
            "\\b(?:long|lasts?|for\\s+(?:an?|one|two|three|half|\\d))\\b|למשך|שיימשך|שתימשך|באורך", FLAGS);

    /** What a correction may say besides its time: "actually", "no", "make that", "instead", "at", "to". */
    private static final Pattern FILLER = Pattern.compile(
            "\\b(?:ac?t?u?a?l+y|actaully|no|nope|wait|sorry|oops|oh|rather|make|that|change|to|scratch|instead|please|at|for|it"
                    + "|am|pm|a\\.m\\.|p\\.m\\.|o'?clock|let's|lets|say|better|then)\\b"
                    + "|(?:^|\\s)(?:בעצם|לא|רגע|סליחה|אופס|אה|עדיף|במקום|זה|בשעה|לשעה|אז|בבקשה)(?=\\s|$|[.,!?])|\\d",
            FLAGS);

    /** Words that say which half of the day a clock is in. */
    private static final Pattern HALF_OF_DAY = Pattern.compile(
            "\\b(?:am|pm|a\\.m|p\\.m|morning|evening|night|tonight|afternoon|noon|midday|midnight)\\b|\\d\\s*[ap]m"
                    + "|בבוקר|בערב|בלילה|בצהריים|צהריים|אחה\"צ|אחר הצהריים|חצות|לפנות",
            FLAGS);

    private static final Pattern NUMBER = Pattern.compile("(\\d{1,3})");

    /** Words without which a message refers to nothing said before: a pronoun or a correction. */
    private static final Pattern REFERS = Pattern.compile(
            "\\b(?:it|that|this|them|ac?t?u?a?l+y|actaully|instead|no|nope|wait|rather|make)\\b"
                    + "|זה|זאת|אותו|אותה|אותם|אותן|לזה|בעצם|במקום|רגע|לא,",
            FLAGS);

    private FollowUps() {}

    /**
     * Whether {@code message} may be a follow-up at all, so that what it would refer to is looked up
     * only then (it costs reading the user's last runs).
     */
    public static boolean mayRefer(String message) {
        return REFERS.matcher(message).find();
    }

    /** Whether a correction says a time and nothing else ("wait, what's on tomorrow?" asks something). */
    private static boolean onlyATime(Request r) {
        String left = FILLER.matcher(r.rest()).replaceAll(" ").replaceAll("(?:^|\\s)[בל]-?(?=\\s|$)", " ");
        return !left.matches("(?sU).*\\p{L}.*") && !r.text().contains("?");
    }

    /** The step a follow-up about {@code it} asks for, when {@code r} is one. */
    public static Optional<Reading> read(Request r, Referent it) {
        String text = r.text().strip();
        boolean task = it.kind().equals("task");
        if (DELETE.matcher(text).matches()) {
            return Optional.of(
                    task
                            ? Reading.of("database", "delete_task", taskOf(it))
                            : Reading.of("calendar", "delete_event", eventOf(it)));
        }
        if (COMPLETE.matcher(text).matches()) {
            return task ? Optional.of(Reading.of("database", "complete_task", taskOf(it))) : Optional.empty();
        }
        Matcher rename = RENAME.matcher(text);
        if (rename.matches()) {
            String said = java.util.stream.Stream.of("en", "en2", "he", "he2")
                    .map(rename::group)
                    .filter(java.util.Objects::nonNull)
                    .findFirst()
                    .orElse("");
            String name = Words.trim(said).replaceAll("^[\"'“”]+|[\"'“”.!]+$", "");
            if (name.isEmpty()) {
                return Optional.empty();
            }
            if (task) {
                return Optional.of(
                        Reading.of("database", "update_task", taskOf(it).put("text", name)));
            }
            ObjectNode changes = Json.object().put("summary", name);
            return Optional.of(new Reading("calendar", "update_event", eventOf(it), changes));
        }
        boolean move = MOVE_IT.matcher(text).find();
        if (!move && !(CORRECTION.matcher(text).find() && onlyATime(r))) {
            return Optional.empty();
        }
        if (LENGTH.matcher(text).find()) {
            // "make it 90 minutes long": how long an event lasts, not when it starts.
            Optional<Duration> lasts = shifted(text);
            if (task || lasts.isEmpty()) {
                return Optional.empty();
            }
            ObjectNode changes =
                    Json.object().put("durationMinutes", lasts.get().toMinutes());
            return Optional.of(new Reading("calendar", "update_event", eventOf(it), changes));
        }
        Optional<ZonedDateTime> to = newTime(r, it, text);
        if (to.isEmpty()) {
            return Optional.empty();
        }
        if (task) {
            return Optional.of(Reading.of(
                    "database",
                    "update_task",
                    taskOf(it).put("dueDate", to.get().format(ISO))));
        }
        ObjectNode changes = Json.object().put("start", to.get().format(ISO));
        return Optional.of(new Reading("calendar", "update_event", eventOf(it), changes));
    }

    /** When "it" should now be: a time said (on its day when only a clock is said), a bare hour, or a shift. */
    private static Optional<ZonedDateTime> newTime(Request r, Referent it, String text) {
        ZonedDateTime now = r.now();
        ZonedDateTime was =
                it.at().map(at -> at.withZoneSameInstant(now.getZone())).orElse(null);
        Optional<TimeExpression> when = r.when();
        if (when.isPresent() && !shifted(text).isPresent()) {
            TimeExpression t = when.get();
            ZonedDateTime at = switch (t) {
                case TimeExpression.Instant i -> i.value();
                case TimeExpression.Interval i -> i.from();
                case TimeExpression.Recurrence rule -> rule.first();
            };
            if (t instanceof TimeExpression.Instant i && i.grain().compareTo(Grain.DAY) >= 0) {
                // "move it to Friday": the same time on the new day.
                return Optional.of(
                        was == null ? at.truncatedTo(ChronoUnit.DAYS).withHour(9) : at.with(was.toLocalTime()));
            }
            if (was != null && Times.clockOnly(t)) {
                if (!HALF_OF_DAY.matcher(t.text()).find() && at.getHour() >= 1) {
                    // "no, 8:30" of something at noon is 08:30, not 20:30: the half of the day nearer it.
                    at = at.withHour(
                            Times.nearest(at.getHour() % 12 == 0 ? 12 : at.getHour() % 12, Optional.ofNullable(was)));
                }
                return Optional.of(was.with(at.toLocalTime()));
            }
            return Optional.of(at.truncatedTo(ChronoUnit.MINUTES));
        }
        Optional<Duration> shift = shifted(text);
        if (shift.isPresent()) {
            if (was == null) {
                return Optional.empty();
            }
            return Optional.of(EARLIER.matcher(text).find() ? was.minus(shift.get()) : was.plus(shift.get()));
        }
        Matcher bare = BARE_HOUR.matcher(text);
        if (!bare.find()) {
            return Optional.empty();
        }
        int hour = Integer.parseInt(bare.group("h"));
        int minute = bare.group("m") == null ? 0 : Integer.parseInt(bare.group("m"));
        if (hour > 23) {
            return Optional.empty();
        }
        String ampm = bare.group("ampm") == null
                ? ""
                : bare.group("ampm").toLowerCase().replace(".", "");
        if (ampm.equals("pm") && hour < 12) {
            hour += 12;
        } else if (ampm.equals("am") && hour == 12) {
            hour = 0;
        } else if (ampm.isEmpty() && hour <= 12) {
            hour = Times.nearest(hour, Optional.ofNullable(was));
        }
        ZonedDateTime day = was != null ? was : now;
        ZonedDateTime at = day.withHour(hour).withMinute(minute).truncatedTo(ChronoUnit.MINUTES);
        if (was == null && at.isBefore(now)) {
            at = at.plusDays(1);
        }
        return Optional.of(at);
    }

    private static Optional<Duration> shifted(String text) {
        Matcher m = SHIFT.matcher(text);
        if (!m.find()) {
            return Optional.empty();
        }
        if (m.group("en") != null) {
            String n = m.group("en").toLowerCase().replaceAll("\\s+", " ");
            boolean hours = m.group("unit").toLowerCase().startsWith("h");
            double amount = switch (n) {
                case "a", "an" -> 1;
                case "half a", "half an" -> 0.5;
                default -> NumberWords.parse(n).orElseThrow();
            };
            return Optional.of(Duration.ofMinutes(Math.round(amount * (hours ? 60 : 1))));
        }
        String he = m.group("he").replaceAll("\\s+", " ");
        Matcher number = NUMBER.matcher(he);
        if (number.find()) {
            long n = Long.parseLong(number.group(1));
            return Optional.of(he.contains("שעות") ? Duration.ofHours(n) : Duration.ofMinutes(n));
        }
        return Optional.of(
                switch (he) {
                    case "חצי שעה" -> Duration.ofMinutes(30);
                    case "רבע שעה" -> Duration.ofMinutes(15);
                    case "שעתיים" -> Duration.ofHours(2);
                    case "שעה וחצי" -> Duration.ofMinutes(90);
                    case "שלוש שעות" -> Duration.ofHours(3);
                    default -> Duration.ofHours(1);
                });
    }

    private static ObjectNode taskOf(Referent it) {
        return Json.object().put("taskId", it.id()).put("query", it.text());
    }

    private static ObjectNode eventOf(Referent it) {
        return Json.object().put("eventId", it.id()).put("summary", it.text());
    }
}
