package dev.weft.memo.internal.planning;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.memo.internal.understanding.Intent;
import dev.weft.time.TimeExpression;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How Memo reads a calendar request (seed 002's calendar resolvers take it from here): what is on
 * the calendar, when an event is, whether the user is free; a new event with its time and length (or
 * none, and the resolver asks when), once or repeating, a whole day or several; a move (a clock time
 * keeps the event's day), a rename; a cancellation of one event, or of a stretch of time with what the
 * request keeps out of it ("but keep the 1:1").
 */
public final class CalendarRequests {
    private static final int FLAGS = Words.FLAGS;
    private static final Pattern FIND_EVENT = Pattern.compile(
            "^(?:please\\s+)?(?:find|look up|search for|search|when(?:'s| is| was| do| does)?|where(?:'s| is)?|what time is)\\b"
                    + "|^(?:תמצא|מצא|תחפש|חפש|מתי|איפה|באיזו שעה)(?:\\s|$)",
            FLAGS);
    private static final Pattern FREE = Pattern.compile(
            "\\b(?:am i (?:free|available|busy)|free at|available|busy|do i have time)\\b|פנוי|פנויה|עסוק|עסוקה|יש לי זמן",
            FLAGS);
    private static final Pattern EVENTS_PLURAL = Pattern.compile(
            "\\b(?:meetings|events|appointments|everything)\\b|\\b(?:clear|wipe|empty|free up)\\s+(?:my\\s+|the\\s+)?(?:calendar|schedule)\\b"
                    + "|פגישות|אירועים|(?:תנקה|תנקי|נקה|לנקות|תפנה|תפני|פנה|לפנות)\\s+(?:לי\\s+)?(?:את\\s+)?(?:היומן|הלו\"ז)|כל מה",
            FLAGS);
    private static final Pattern RENAME = Pattern.compile(
            "^(?:please\\s+)?(?:(?:rename|retitle)\\s+(?:the\\s+|my\\s+)?"
                    + "|(?:change|update|set)\\s+the\\s+(?:name|title)\\s+of\\s+(?:the\\s+|my\\s+)?)(?<from>.+?)\\s+(?:to|as)\\s+(?<to>.+)$"
                    + "|^(?:בבקשה\\s+)?(?:תשנה|שנה|תשני|שני|תחליף|תחליפי|החלף)\\s+את\\s+(?:ה)?(?:שם|כותרת)\\s+(?:של\\s+)?"
                    + "(?<from2>.+?)\\s+ל-?(?<to2>\\S.*)$",
            FLAGS);
    private static final Pattern WHERE = Pattern.compile(
            "\\b(?:location|place|venue)\\s+(?:of\\s+.+?\\s+)?to\\s+(?<en>.+)$|(?:המיקום|המקום)\\s+(?:של\\s+.+?\\s+)?ל-?(?<he>.+)$",
            FLAGS);

    private CalendarRequests() {}

    /** An interval "4pm to 5" said in a move: the event's time, then where it goes. */
    private static final Pattern FROM_TO = Pattern.compile(
            "^(?:the\\s+)?\\S+(?:\\s+(?:am|pm))?\\s+(?:to|till|until|->)\\s+(?<h>\\d{1,2})(?::(?<m>[0-5]\\d))?\\s*(?<ampm>am|pm)?$",
            FLAGS);

    private static final Pattern MOVE =
            Pattern.compile("\\b(?:move|push|pull|shift|bump|reschedule|postpone|delay|bring|change)\\b", FLAGS);

    /** Said of an event that will not happen: "was cancelled", "is off", "בוטלה", "התבטל". */
    private static final String CANCELLED_WORDS =
            "(?:was|got|has been|is|have been|were|are)\\s+(?:cancell?ed|called off)\\b|(?:בוטל|בוטלה|בוטלו|התבטל|התבטלה|התבטלו|מבוטל|מבוטלת)(?=\\s|$|[.,!])";

    private static final Pattern CANCELLED = Pattern.compile(CANCELLED_WORDS, FLAGS);

    /**
     * The Hebrew verbs a calendar request opens with, which are no part of the event's name: each as the
     * imperative to a man, to a woman and to many, and the future forms said as a request ("תקבעי").
     */
    private static final List<String> HEBREW_REQUEST_VERBS = List.of(
            // schedule, set
            "קבע",
            "קבעי",
            "קבעו",
            "תקבע",
            "תקבעי",
            "תקבעו",
            // make, create
            "צור",
            "צרי",
            "צרו",
            "תצור",
            "תצרי",
            "תצרו",
            // add
            "הוסף",
            "הוסיפי",
            "הוסיפו",
            "תוסיף",
            "תוסיפי",
            "תוסיפו",
            // put
            "שים",
            "שימי",
            "שימו",
            "תשים",
            "תשימי",
            "תשימו",
            // put in, enter
            "הכנס",
            "הכניסי",
            "הכניסו",
            "תכניס",
            "תכניסי",
            "תכניסו",
            // write down
            "רשום",
            "רשמי",
            "רשמו",
            "תרשום",
            "תרשמי",
            "תרשמו",
            // book, reserve
            "שריין",
            "שרייני",
            "שריינו",
            "תשריין",
            "תשרייני",
            "תשריינו",
            // arrange
            "ארגן",
            "ארגני",
            "תארגן",
            "תארגני",
            // block
            "חסום",
            "חסמי",
            "תחסום",
            "תחסמי",
            // schedule (a time)
            "תזמן",
            "תזמני",
            "תתזמן",
            "תתזמני",
            // delete, cancel, remove
            "מחק",
            "מחקי",
            "תמחק",
            "תמחקי",
            "בטל",
            "בטלי",
            "תבטל",
            "תבטלי",
            "תוריד",
            "תורידי",
            // move, postpone, bring forward
            "העבר",
            "העבירי",
            "תעביר",
            "תעבירי",
            "הזז",
            "הזיזי",
            "תזיז",
            "תזיזי",
            "דחה",
            "דחי",
            "תדחה",
            "תדחי",
            "תקדים",
            "תקדימי",
            "תאריך",
            "תאריכי",
            // find, change
            "מצא",
            "מצאי",
            "תמצא",
            "תמצאי",
            "חפש",
            "חפשי",
            "תחפש",
            "תחפשי",
            "תשנה",
            "תשני",
            "תעדכן",
            "תעדכני",
            // questions about one
            "מתי",
            "איפה",
            "באיזו שעה");

    /** The opening of a Hebrew calendar request: "בבקשה קבעי לי את ה…", "תוסיף לי אירוע …". */
    private static final String HEBREW_REQUEST = "(?U)^(?:בבקשה\\s+)?(?:" + String.join("|", HEBREW_REQUEST_VERBS)
            + ")(?:\\s+לי)?(?:\\s+את)?\\s+(?:ה)?(?:אירוע\\s+)?";

    /** "the meeting with the bank was cancelled", "הפגישה עם הבנק מחר בוטלה, תוריד אותה": the event goes. */
    static boolean saysCancelled(String text) {
        return CANCELLED.matcher(text).find();
    }

    static Reading read(Intent intent, Request r) {
        ObjectNode c = Json.object();
        ObjectNode changes = Json.object();
        Optional<TimeExpression> when = r.when();
        return switch (intent) {
            case CALENDAR_CREATE -> {
                c.put("summary", summary(r.rest(), r.language()));
                if (when.isEmpty()) {
                    // "put a meeting in my calendar": the resolver asks when.
                    yield new Reading("calendar", "create_event", c, changes);
                }
                if (when.get() instanceof TimeExpression.Recurrence rule) {
                    c.put("start", rule.first().format(java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME));
                    c.put("rrule", rule.toRrule());
                    r.length()
                            .ifPresent(l -> c.put(
                                    "end",
                                    rule.first()
                                            .plus(l.duration())
                                            .format(java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME)));
                    yield new Reading("calendar", "create_recurring", c, changes);
                }
                Times.eventTime(when.get(), r.length().map(Times.Length::duration), c, r.now());
                yield new Reading("calendar", "create_event", c, changes);
            }
            case CALENDAR_UPDATE -> {
                Matcher rename = RENAME.matcher(r.text());
                if (rename.find()) {
                    String from = Words.either(rename, "from", "from2");
                    int to = rename.group("to") != null ? rename.start("to") : rename.start("to2");
                    if (when.isPresent() && when.get().span().start() < to) {
                        // "rename tomorrow's meeting to budget sync": the time finds the event.
                        from = from.replace(when.get().text().strip(), " ")
                                .replaceAll("(?iU)'s\\b", "")
                                .replaceAll("\\s{2,}", " ");
                        Times.window(when.get(), c, "timeMin", "timeMax");
                    }
                    c.put("summary", summary(from, r.language()));
                    changes.put(
                            "summary",
                            Words.trim(Words.either(rename, "to", "to2")).replaceAll("^[\"'“”]+|[\"'“”]+$", ""));
                    yield new Reading("calendar", "update_event", c, changes);
                }
                String rest = r.rest();
                Optional<Times.BareClock> bare = when.isEmpty() ? Times.bareClock(rest) : Optional.empty();
                if (bare.isPresent()) {
                    // "move the dentist to 4": which 4 the resolver says, by the event's own time.
                    rest = rest.substring(0, bare.get().start());
                    changes.put(
                            "clock",
                            String.format(
                                    "%d:%02d", bare.get().hour(), bare.get().minute()));
                }
                if (when.isPresent()
                        && when.get() instanceof TimeExpression.Interval span
                        && span.grain().compareTo(dev.weft.time.Grain.DAY) < 0) {
                    Matcher moved = FROM_TO.matcher(span.text().strip());
                    if (moved.matches() && MOVE.matcher(r.text()).find()) {
                        // "move the 4pm to 5": not an event from 4 to 5, but the 4pm one moved to 5.
                        Times.window(
                                new TimeExpression.Instant(
                                        span.text(), span.span(), span.from(), dev.weft.time.Grain.HOUR),
                                c,
                                "timeMin",
                                "timeMax");
                        int hour = Integer.parseInt(moved.group("h"));
                        int minute = moved.group("m") == null ? 0 : Integer.parseInt(moved.group("m"));
                        String half = moved.group("ampm") == null
                                ? ""
                                : moved.group("ampm").toLowerCase();
                        if (half.isEmpty()) {
                            changes.put("clock", String.format("%d:%02d", hour, minute));
                        } else {
                            int h24 = half.startsWith("p") ? hour % 12 + 12 : hour % 12;
                            changes.put("startTime", String.format("%02d:%02d", h24, minute));
                        }
                        c.put("summary", summary(rest, r.language()));
                        yield new Reading("calendar", "update_event", c, changes);
                    }
                }
                Optional<Times.BareClock> to = when.isPresent() && Times.clockOnly(when.get())
                        ? Times.bareClock(r.text())
                                .filter(b -> b.start() >= when.get().span().end())
                        : Optional.empty();
                if (to.isPresent()) {
                    // "move the 4pm to 5": the time said finds the event, the bare hour is where it goes.
                    Times.window(when.get(), c, "timeMin", "timeMax");
                    changes.put(
                            "clock",
                            String.format("%d:%02d", to.get().hour(), to.get().minute()));
                    String named = Times.bareClock(rest)
                            .map(b -> r.rest().substring(0, b.start()))
                            .orElse(rest);
                    c.put("summary", summary(named, r.language()));
                    yield new Reading("calendar", "update_event", c, changes);
                }
                Matcher where = WHERE.matcher(rest);
                if (where.find()) {
                    changes.put("location", Words.trim(Words.either(where, "en", "he")));
                    c.put("summary", summary(rest.substring(0, where.start()), r.language()));
                } else {
                    c.put("summary", summary(rest, r.language()));
                }
                when.ifPresent(t -> {
                    if (Times.clockOnly(t)) {
                        // "move it to 4pm" keeps the event's day: only its time of day changes.
                        changes.put("startTime", Times.hhmm(((TimeExpression.Instant) t).value()));
                    } else {
                        Times.eventTime(t, Optional.empty(), changes, r.now());
                        changes.remove("end");
                    }
                });
                r.length()
                        .ifPresent(
                                l -> changes.put("durationMinutes", l.duration().toMinutes()));
                yield new Reading("calendar", "update_event", c, changes);
            }
            case CALENDAR_DELETE -> {
                boolean many = Words.ALL.matcher(r.text()).find()
                        || EVENTS_PLURAL.matcher(r.text()).find()
                        || !r.kept().isEmpty();
                keptOut(r, c);
                if (when.isPresent() && many) {
                    Times.window(when.get(), c, "timeMin", "timeMax");
                    yield new Reading("calendar", "delete_events", c, changes);
                }
                c.put("summary", summary(r.rest(), r.language()));
                when.ifPresent(t -> Times.window(t, c, "timeMin", "timeMax"));
                yield new Reading("calendar", "delete_event", c, changes);
            }
            default -> {
                if (FREE.matcher(r.text()).find() && when.isPresent()) {
                    Times.window(when.get(), c, "timeMin", "timeMax");
                    yield new Reading("calendar", "check_conflicts", c, changes);
                }
                if (FIND_EVENT.matcher(r.text()).find() && when.isEmpty()) {
                    String named = summary(r.rest(), r.language());
                    if (!named.equals(r.hebrew() ? "אירוע" : "Event")) {
                        c.put("summary", named);
                        yield new Reading("calendar", "find_event", c, changes);
                    }
                }
                when.ifPresent(t -> Times.window(t, c, "timeMin", "timeMax"));
                yield new Reading("calendar", "list_events", c, changes);
            }
        };
    }

    /** What the request keeps out: days into {@code excludeDays}, anything else into {@code excludeSummaries}. */
    private static void keptOut(Request r, ObjectNode c) {
        for (Words.Kept kept : r.kept()) {
            Optional<TimeExpression> day = r.keptTime(kept)
                    .filter(t -> t instanceof TimeExpression.Instant i && i.grain() == dev.weft.time.Grain.DAY);
            if (day.isPresent()) {
                ArrayNode days = c.has("excludeDays") ? (ArrayNode) c.get("excludeDays") : c.putArray("excludeDays");
                days.add(((TimeExpression.Instant) day.get())
                        .value()
                        .toLocalDate()
                        .toString());
            } else {
                ArrayNode summaries = c.has("excludeSummaries")
                        ? (ArrayNode) c.get("excludeSummaries")
                        : c.putArray("excludeSummaries");
                summaries.add(kept.said());
            }
        }
    }

    /** An event's name: the request without its verbs, articles, "in my calendar" and the like. */
    static String summary(String rest, String language) {
        String text = rest.replaceAll(
                        "(?iU)^(?:please\\s+|can you\\s+|could you\\s+|i need to\\s+|i want to\\s+)*(?:schedule|add|create|set up|book|"
                                + "put|make|plan|arrange|pencil in|block(?: out)?|reserve|save|delete|remove|cancel|move|reschedule|"
                                + "postpone|push|shift|bring|delay|change|update|rename|find|look up|search for|search|when is|"
                                + "when's|where is|where's|what time is|take|scrap|drop|erase|clear|get rid of|call off|switch|"
                                + "extend|make|new event)\\s+(?:me\\s+)?(?:an?\\s+|the\\s+|my\\s+)?(?:new\\s+)?(?:weekly\\s+|daily\\s+|"
                                + "monthly\\s+)?(?:event|appointment)?\\s*(?:called|named|for)?\\s*",
                        "")
                .replaceAll(HEBREW_REQUEST, "")
                .replaceAll(
                        "(?iU)\\s*,?\\s*(?:and\\s+)?(?:put|add|save|write|mark)\\s+(?:it|this|that)\\s+(?:in|on|to|into)\\s+(?:my\\s+|the\\s+)?"
                                + "(?:calendar|diary|schedule)\\b.*$",
                        "")
                .replaceAll(
                        "(?iU)\\s+(?:to|in|on|from|into)\\s+(?:my\\s+|the\\s+)?(?:calendar|schedule|diary)\\b.*$", "")
                .replaceAll("(?iU)\\s+(?:is cancelled|is canceled|is off)\\b.*$", "")
                .replaceAll("(?iU)\\s+" + CANCELLED_WORDS + ".*$", "")
                .replaceAll("(?U)^(?:אין\\s+יותר|כבר\\s+אין)\\s+", "")
                .replaceAll("(?iU)^(?:the|my|our)\\s+(?=\\p{L})", "")
                .replaceAll(
                        "(?U)^ה(?=(?:פגישה|פגישת|ישיבה|ישיבת|שיחה|שיחת|ארוחה|ארוחת|תור|אירוע|מסיבה|מסיבת|הרצאה|טיסה|שיעור|אימון|ריאיון))",
                        "")
                .replaceAll("(?U)^(?:תסמן|תסמני|סמן|סמני)(?:\\s+(?:לי|ביומן))*\\s+(?:ש)?", "")
                .replaceAll("(?U)^ש?אני\\s+(?:בחופש|בחופשה|לא במשרד)", "חופש")
                .replaceAll("(?U)\\s+כל\\s*$", "")
                .replaceAll("(?iU)\\s*,?\\s*(?:כל היום|all day(?: long)?|the whole day)\\s*$", "")
                .replaceAll("(?U)^(?:את\\s+)?כ(?=(?:יום|חופש|חג|ערב)(?:\\s|$))", "")
                .replaceAll(
                        "(?U)\\s*,?\\s*(?:ו)?(?:תכניס|תוסיף|תרשום|תרשמי|תכניסי)(?:\\s+את\\s+זה)?\\s+(?:ל|ב)(?:ה)?(?:יומן|לו\"ז)\\b.*$",
                        "")
                .replaceAll("(?U)(?:^|\\s+)(?:ל|ב|מ)(?:ה)?(?:יומן|לוח השנה|לו\"ז)(?=\\s|$)", " ")
                .replaceAll(
                        "(?iU)^(?:sorry,?\\s+)?i\\s+(?:can'?t|cannot|won'?t|will not|am not going to|'m not going to)\\s+"
                                + "(?:make(?:\\s+it\\s+to)?|come to|attend|go to|do|join)\\s+(?:the\\s+|my\\s+)?",
                        "")
                .replaceAll(
                        "(?iU)\\s*,?\\s*(?:so\\s+|please\\s+)?(?:take|get|remove|cancel|delete|drop|scrap|clear)\\s+(?:it|that|this)"
                                + "(?:\\s+(?:off|from))?(?:\\s+(?:my|the)\\s+(?:calendar|schedule|diary))?\\s*[.!]*$",
                        "")
                .replaceAll(
                        "(?U)^(?:אני\\s+)?לא\\s+(?:יכול|יכולה|אוכל|אספיק|מגיע|מגיעה|אגיע)(?:\\s+להגיע)?\\s+(?:ל|אל\\s+)?(?:ה)?",
                        "")
                .replaceAll(
                        "(?U)\\s*,?\\s*(?:אז\\s+)?(?:תוריד|תורידי|תמחק|תמחקי|תבטל|תבטלי|מחק|בטל)(?:\\s+(?:את\\s+)?(?:זה|אותה|אותו))?"
                                + "(?:\\s+(?:מה|מ)(?:ה)?(?:יומן|לו\"ז))?\\s*[.!]*$",
                        "")
                .replaceAll(
                        "(?iU)^(?:i\\s+have|i've\\s+got|i\\s+got|we\\s+have)\\s+(?!to\\b)(?:an?\\s+|my\\s+|the\\s+|our\\s+)?",
                        "")
                .replaceAll("(?U)^(?:יש\\s+לי|יש\\s+לנו)\\s+", "")
                .replaceAll("(?iU)^i'?m\\s+(?:away|off|on vacation|on holiday|out of (?:the )?office)\\b", "Away")
                .replaceAll("(?U)^אני\\s+(?:בחופש|בחופשה|לא במשרד)", "חופש")
                .replaceAll("(?iU)\\s+(?:to|for|as)\\s*$", "")
                .replaceAll("(?U)\\s+(?:ל|ל-)\\s*$", "")
                .trim();
        String done = Words.trim(text);
        if (done.matches("(?iU)(?:my|the|our|one|זו|זאת|הזה|הזאת|את)")) {
            // "cancel my 3pm": what is left names no event; its time finds it.
            done = "";
        }
        return done.isEmpty() ? (language.equals("he") ? "אירוע" : "Event") : done;
    }
}
