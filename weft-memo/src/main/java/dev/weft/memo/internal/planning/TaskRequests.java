package dev.weft.memo.internal.planning;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.language.Cues;
import dev.weft.memo.internal.understanding.Intent;
import dev.weft.time.TimeExpression;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How Memo reads a request about tasks, reminders and alarms (alarms are reminders to people): a
 * task or reminder with its due time, a repeating one (daily, weekly, on a day of the month) or a
 * nudge ("every 20 minutes"), several at once; what is due; a move or a rename; a deletion of one,
 * of a kind ("my alarms") or of all, with what the request keeps out; a completion.
 */
public final class TaskRequests {
    private static final int FLAGS = Words.FLAGS;
    private static final Pattern REMINDER = Pattern.compile(
            "\\b(?:remind(?:er|ers)?|alarms?|wake me|wake-?up|nudg(?:e|ing)|ping(?:ing)?|bug(?:ging)?|alert|heads up|timer)\\b"
                    + "|תזכיר|תזכורת|תזכורות|להזכיר|שעון|שעונים|אלרם|אלרמים|השכמה|תעיר|תעירי|תנדנד|נודניק|התראה|התראות|טיימר",
            FLAGS);
    private static final Pattern ALARM = Pattern.compile(
            "\\b(?:alarms?|wake me|wake-?up|get me up)\\b|ה?שעון(?: ה?מעורר)?|ה?שעונים|ה?אלרם|ה?אלרמים|השכמה|תעיר|תעירי",
            FLAGS);
    private static final Pattern PLURAL = Pattern.compile(
            "\\b(?:my|the|all)\\s+(?:tasks|reminders|to-?dos|alarms)\\b|\\balarms\\b|\\breminders\\b"
                    + "|(?:^|\\s)(?:ה|את ה|כל ה)(?:משימות|תזכורות|התראות|שעונים)|שעונים מעוררים|תזכורות",
            FLAGS);
    private static final Pattern OVERDUE = Pattern.compile(
            "\\b(?:overdue|late|past due|missed|forget|forgot)\\b|באיחור|שעבר|שפספסתי|פספסתי|שכחתי", FLAGS);
    private static final Pattern SEVERAL = Pattern.compile(
            "^(?:please\\s+)?(?:add|create)\\s+(?:\\p{L}+\\s+)?(?:tasks|to-?dos|reminders)\\s*:\\s*(?<items>.+)$"
                    + "|^(?:בבקשה\\s+)?(?:תוסיף|הוסף|תוסיפי|צור|תיצור)\\s+(?:\\p{L}+\\s+)?(?:משימות|מטלות)\\s*:\\s*(?<items2>.+)$",
            FLAGS);
    private static final Pattern RENAME = Pattern.compile(
            "^(?:please\\s+)?rename\\s+(?:the\\s+|my\\s+)?(?:task|reminder|to-?do)?\\s*(?<from>.+?)\\s+to\\s+(?<to>.+)$"
                    + "|^(?:תשנה|שנה)\\s+את\\s+(?:ה)?שם\\s+(?:של\\s+)?(?:ה)?(?:משימה|תזכורת)\\s+(?<from2>.+?)\\s+ל(?:-)?(?<to2>\\S.*)$",
            FLAGS);
    private static final Pattern SNOOZE = Pattern.compile(
            "\\b(?:snooze|delay|push)\\b.*?\\bby\\s+(?<en>\\d+)\\s*(?:minutes?|mins?)|תדחה\\s.*?ב-?(?<he>\\d+)\\s*דקות",
            FLAGS);

    private static final Pattern EN_LEAD = Pattern.compile(
            "^(?:please\\s+|can you\\s+|could you\\s+|would you\\s+)*(?:remind me(?:\\s+(?:to|that|about|of))?"
                    + "|(?:set|make|create|add|put) (?:a |an |the |me a |me an )?(?:new )?(?:reminder|alarm|task|to-?do|timer)"
                    + "(?:\\s+(?:to|for|about|at|that))?|new (?:task|reminder|alarm)|(?:keep )?(?:pinging|nudging|bugging) me"
                    + "(?:\\s+(?:to|about))?|(?:nudge|ping|alert|bug) me(?:\\s+(?:to|about))?|give me a heads up(?:\\s+(?:to|about))?"
                    + "|let me know(?:\\s+(?:to|about))?|make sure i|wake me(?: up)?"
                    + "|(?:delete|remove|cancel|turn off|disable|stop) (?:the |my |all |all my )?(?:tasks?|reminders?|to-?dos?|alarms?)"
                    + "(?:\\s+(?:to|about|for))?|stop reminding me(?:\\s+(?:to|about))?|no more reminders about"
                    + "|(?:mark|complete|tick off|tick|check off|cross off|cross)(?: the| my)?(?: task| reminder)?"
                    + "|i (?:finished|did|completed|already|took care of)|done with|finished|got"
                    + "|(?:move|reschedule|postpone|change|update|push|snooze|delay) (?:the |my )?(?:task|reminder|alarm)?"
                    + "(?:\\s+(?:to|about|for))?|(?:clear|erase) (?:the |my |all )?(?:tasks|reminders|to-?dos|alarms)"
                    + "|i need to|i have to|don'?t let me forget(?:\\s+to)?|don'?t forget(?:\\s+to)?|task:|todo:?|reminder:|note to self)\\s*",
            FLAGS);
    private static final Pattern HE_LEAD = Pattern.compile(
            "^(?:בבקשה\\s+)?(?:תזכיר לי|תזכירי לי|הזכר לי|תנדנד לי|תנדנדי לי|תעדכן אותי|תזכורת|תוסיף משימה|הוסף משימה|"
                    + "תוסיפי משימה|צור משימה|תצור משימה|משימה חדשה|משימה|"
                    + "(?:תוסיף|תוסיפי|הוסף|צור|תצור|תקבע|קבע|תגדיר|תשים|תשימי|שים|תעשה|תעשי|תכין|תכיני|תכניס|תרשום)(?: לי)? תזכורת"
                    + "(?:\\s+(?:על|לגבי)(?=\\s))?|"
                    + "(?:תכוון|תכווני|תגדיר|תשים|תקבע)(?: לי)? (?:שעון מעורר|השכמה|התראה)|תעיר אותי|תעירי אותי|"
                    + "(?:תמחק|מחק|תמחקי|בטל|תבטל|תבטלי|תכבה|תכבי) את (?:ה)?(?:משימה|תזכורת|שעון המעורר|השעון המעורר|התראה)"
                    + "(?:\\s+(?:על|של))?|(?:תמחק|מחק|תמחקי|בטל|תבטל) (?:ה)?(?:משימה|תזכורת)|תפסיק להזכיר לי|"
                    + "סיימתי(?: עם)?(?: את)?|עשיתי(?: את)?|גמרתי(?: את)?|טיפלתי ב|סמן(?: את)?|תסמן(?: את)?|תסמני(?: את)?|"
                    + "(?:תזיז|הזז|תדחה|דחה|תעדכן|עדכן|תשנה|שנה|תעביר|העבר) את (?:ה)?(?:משימה|תזכורת)|אני צריך|אני צריכה|"
                    + "אני חייב|אני חייבת|אל תשכח(?: להזכיר לי)?|אל תיתן לי לשכוח|תדאג ש)\\s*[:\\-]?\\s*",
            FLAGS);

    /**
     * A request not to be reminded or woken: "don't wake me up tomorrow at 6", "no alarm tomorrow", "don't
     * remind me to call mom", "אל תעיר אותי מחר ב-6", "בלי שעון מעורר מחר". It cancels; it never sets one.
     */
    private static final Pattern NEGATED = Pattern.compile(
            "^(?:please\\s+|and\\s+|but\\s+|oh\\s+and\\s+)*(?:don'?t|do not|no need to|never|you don'?t need to|there'?s no need to)\\s+"
                    + "(?:wake me(?:\\s+up)?|get me up|remind me(?:\\s+(?:to|about|of|that))?"
                    + "|set (?:an?|the|my) (?:alarm|reminder)(?:\\s+(?:to|for|about))?|(?:ping|nudge|bug) me(?:\\s+(?:to|about))?)"
                    + "|^(?:please\\s+)?no (?:more\\s+)?(?:alarms?|reminders?|wake-?up(?:\\s+call)?)\\b(?:\\s+(?:for|about|to))?"
                    + "|^(?:בבקשה\\s+)?(?:אל|לא צריך|אין צורך|אין צורך ל|לא צריך ל)\\s*-?\\s*(?:תעיר|תעירי|להעיר)(?:\\s+אותי)?"
                    + "|^(?:בבקשה\\s+)?(?:אל|לא צריך|אין צורך)\\s*-?\\s*(?:תזכיר|תזכירי|להזכיר)(?:\\s+לי)?(?:\\s+(?:על|ש|ל))?"
                    + "|^(?:בלי|אין|לא צריך|אין צורך|אין לי צורך|לא צריך לי)\\s*(?:ב|ל)?-?\\s*(?:ה)?(?:שעון(?:\\s+(?:ה)?מעורר)?|השכמה|תזכורת|אלרם)(?=\\s|$)"
                    + "|^(?:no need for|i don'?t need|we don'?t need|i won'?t need)\\s+(?:an?\\s+|the\\s+|my\\s+)?(?:alarm|reminder|wake-?up(?:\\s+call)?)\\b"
                    + "(?:\\s+(?:for|about|to))?",
            FLAGS);

    /** What names an alarm rather than what it is for: "turn off", "the", "alarm", "השעון המעורר", "של". */
    private static final Pattern ALARM_WORDS = Pattern.compile(
            "\\b(?:turn off|switch off|shut off|disable|kill|cancel|delete|remove|stop|move|change|push|set|reset|the|my"
                    + "|alarms?|wake-?up|am|pm|for|at|to)\\b"
                    + "|(?:^|\\s)(?:תכבה|תכבי|כבה|תבטל|תבטלי|בטל|תמחק|תמחקי|מחק|תזיז|תזיזי|הזז|תשנה|תשני|שנה|תעביר|תעבירי|תדחה|תדחי"
                    + "|את|ה?שעון|ה?מעורר|ה?שעונים|ה?השכמה|השכמה|של|ה?אלרם)(?=\\s|$)",
            FLAGS);

    private static final Pattern PART_OF_DAY =
            Pattern.compile("\\b(?:morning|afternoon|evening|night|tonight)\\b|בוקר|ערב|לילה|צהריים|אחה\"צ", FLAGS);

    /** An alarm's hour said bare at the end: "the 7 alarm" read as words, "השעון של 7", "ההשכמה של 6:30". */
    private static final Pattern ALARM_HOUR =
            Pattern.compile("(?:^|\\s)(?:של|ב-?|ל-?|at|for)?\\s*(?<h>\\d{1,2})(?:[:.](?<m>[0-5]\\d))?\\s*$", FLAGS);

    /** A timer and the words that set it: "set a timer", "start a 10 minute timer", "תפעיל טיימר". */
    private static final Pattern TIMER = Pattern.compile(
            "\\b(?:(?:set|start|put on|make)\\s+(?:me\\s+)?(?:an?\\s+)?)?timer\\b(?:\\s+(?:for|of))?"
                    + "|(?:^|\\s)(?:(?:תפעיל|תפעילי|הפעל|תשים|תשימי|שים|תכוון|תכווני|תגדיר|תעשה)(?:\\s+לי)?\\s+)?טיימר(?:\\s+(?:ל|של))?(?=\\s|$)",
            FLAGS);

    private TaskRequests() {}

    static Reading read(Intent intent, Request r) {
        Matcher negated = NEGATED.matcher(r.text());
        boolean about = intent == Intent.TASK_CREATE
                || intent == Intent.TASK_DELETE
                // "אין צורך בשעון מעורר מחר" read as a question about alarms; "אין תזכורות מחר?" still asks.
                || intent == Intent.TASK_QUERY && !Cues.question(r.text());
        if (about && negated.find()) {
            // Not to be reminded is to cancel what would remind: the words after the negation name it.
            String rest = NEGATED.matcher(r.rest()).replaceFirst("").strip();
            if (intent != Intent.TASK_DELETE || !rest.equals(r.rest())) {
                return read(
                        Intent.TASK_DELETE,
                        new Request(
                                r.text(), r.language(), r.now(), r.times(), r.chosen(), r.length(), r.kept(), rest));
            }
        }
        ObjectNode c = Json.object();
        String text = r.text();
        Optional<TimeExpression> when = r.when();
        boolean alarm = ALARM.matcher(text).find();
        boolean plural = Words.ALL.matcher(text).find() || PLURAL.matcher(text).find();
        switch (intent) {
            case TASK_QUERY -> {
                if (OVERDUE.matcher(text).find()) {
                    c.put("window", "overdue");
                }
                when.ifPresent(t -> c.put("window", Times.windowName(t, r.now())));
                typeOf(text).ifPresent(type -> c.put("type", type));
                return Reading.of("database", "find_task", c);
            }
            case TASK_DELETE -> {
                List<String> kept = r.kept().stream().map(Words.Kept::said).toList();
                String said = taskText(r.rest(), r.language());
                if (!plural
                        && said.isEmpty()
                        && !alarm
                        && typeOf(text).filter("reminder"::equals).isPresent()) {
                    // "delete the reminder": one of them, asked which when there are several (seed 002),
                    // never all of them.
                    c.put("query", "");
                    typeOf(text).ifPresent(type -> c.put("type", type));
                    return Reading.of("database", "delete_task", c);
                }
                if (plural || (said.isEmpty() && !alarm)) {
                    c.put("window", when.map(t -> Times.windowName(t, r.now())).orElse("all"));
                    typeOf(text).ifPresent(type -> c.put("type", type));
                    if (!kept.isEmpty()) {
                        ArrayNode except = c.putArray("exceptText");
                        kept.forEach(except::add);
                    }
                    return Reading.of("database", "delete_tasks", c);
                }
                if (alarm) {
                    // "turn off the 7am alarm", "תכבה את השעון של 7": the alarm is found by its time, not words.
                    Matcher hour = ALARM_HOUR.matcher(said);
                    if (when.isEmpty() && hour.find()) {
                        int h = Integer.parseInt(hour.group("h"));
                        int m = hour.group("m") == null ? 0 : Integer.parseInt(hour.group("m"));
                        if (h <= 23 && m <= 59) {
                            java.time.ZonedDateTime at = r.now()
                                    .withHour(h)
                                    .withMinute(m)
                                    .truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
                            c.put(
                                    "dueDate",
                                    (at.isBefore(r.now()) ? at.plusDays(1) : at)
                                            .format(java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME));
                        }
                        said = said.substring(0, hour.start());
                    }
                    said = Words.trim(ALARM_WORDS.matcher(said).replaceAll(" "));
                }
                c.put("query", said);
                if (alarm) {
                    c.put("type", "reminder");
                    // An alarm's clock said alone is in the morning, as when it was set ("at 6" is 06:00).
                    // A part of the day ("tomorrow morning's alarm") is no alarm's time: which one is asked.
                    when.filter(t -> !PART_OF_DAY.matcher(t.text()).find())
                            .map(t -> Times.morning(t, r.now()))
                            .flatMap(t -> Times.dueOf(t, r.now()))
                            .ifPresent(d -> c.put("dueDate", d));
                }
                return Reading.of("database", "delete_task", c);
            }
            case TASK_COMPLETE -> {
                if (plural && !text.matches("(?iU).*\\b(?:it|that)\\b.*")) {
                    when.ifPresent(t -> c.put("window", Times.windowName(t, r.now())));
                    return Reading.of("database", "complete_tasks", c);
                }
                c.put("query", taskText(r.rest(), r.language()));
                return Reading.of("database", "complete_task", c);
            }
            case TASK_UPDATE -> {
                Matcher rename = RENAME.matcher(text);
                if (rename.find()) {
                    c.put("query", Words.trim(Words.either(rename, "from", "from2")));
                    c.put("text", Words.trim(Words.either(rename, "to", "to2")));
                    return Reading.of("database", "update_task", c);
                }
                String rest = r.rest();
                Optional<Times.BareClock> bare = when.isEmpty() ? Times.bareClock(rest) : Optional.empty();
                if (bare.isPresent()) {
                    // "move the bank reminder to 10": which 10 the resolver says, by the task's own time.
                    rest = rest.substring(0, bare.get().start());
                    c.put(
                            "clock",
                            String.format(
                                    "%d:%02d", bare.get().hour(), bare.get().minute()));
                }
                c.put(
                        "query",
                        alarm
                                ? Words.trim(ALARM_WORDS
                                        .matcher(taskText(rest, r.language()))
                                        .replaceAll(" "))
                                : taskText(rest, r.language()));
                if (alarm) {
                    c.put("type", "reminder");
                }
                Matcher snooze = SNOOZE.matcher(text);
                if (snooze.find()) {
                    c.put("delayMinutes", Integer.parseInt(Words.either(snooze, "en", "he")));
                } else {
                    // "move my alarm to 7:30" is in the morning, as an alarm set at 7:30 is.
                    when.map(t -> alarm ? Times.morning(t, r.now()) : t)
                            .flatMap(t -> Times.dueOf(t, r.now()))
                            .ifPresent(d -> c.put("dueDate", d));
                }
                return Reading.of("database", "update_task", c);
            }
            default -> {
                return create(r, c, alarm);
            }
        }
    }

    private static Reading create(Request r, ObjectNode c, boolean alarm) {
        String text = r.text();
        Matcher several = SEVERAL.matcher(text);
        if (several.find() && !REMINDER.matcher(text).find()) {
            ArrayNode tasks = c.putArray("tasks");
            Words.items(Words.either(several, "items", "items2"), r.language())
                    .forEach(item -> tasks.addObject().put("text", item));
            return Reading.of("database", "create_tasks", c);
        }
        String said = taskText(r.rest(), r.language());
        Optional<java.time.Duration> timer =
                TIMER.matcher(text).find() && r.when().isEmpty()
                        ? r.length().map(Times.Length::duration).or(() -> Times.lasting(text, r.language()))
                        : Optional.empty();
        if (timer.isPresent()) {
            // "set a timer for 10 minutes", "טיימר ל-20 דקות": a reminder that long from now.
            c.put("text", r.hebrew() ? "טיימר" : "Timer");
            c.put("isReminder", true);
            c.put(
                    "dueDate",
                    r.now()
                            .plus(timer.get())
                            .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                            .format(java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME));
            c.put("reminder", "0 minutes");
            return Reading.of("database", "create_task", c);
        }
        if (said.isEmpty() && alarm) {
            said = r.hebrew() ? "שעון מעורר" : "Alarm";
        }
        c.put("text", said);
        if (alarm) {
            c.put("isAlarm", true);
        }
        // An errand said time first ("on wednesday at 5pm call mom") asks to be reminded at that time.
        boolean reminder = REMINDER.matcher(text).find() || TimeFirst.isErrand(r);
        c.put("isReminder", reminder);
        r.when().map(t -> alarm ? Times.morning(t, r.now()) : t).ifPresent(t -> {
            if (t instanceof TimeExpression.Recurrence recurrence) {
                c.set("reminderRecurrence", Times.recurrence(recurrence));
            } else {
                Times.dueOf(t, r.now()).ifPresent(d -> c.put("dueDate", d));
                if (reminder) {
                    c.put("reminder", "0 minutes");
                }
            }
        });
        return Reading.of("database", "create_task", c);
    }

    private static Optional<String> typeOf(String text) {
        if (text.matches("(?iU).*\\b(?:recurring|repeating)\\b.*") || text.contains("חוזר")) {
            return Optional.of("recurring");
        }
        if (REMINDER.matcher(text).find()) {
            return Optional.of("reminder");
        }
        return Optional.empty();
    }

    /** A task's text: the request without its request words, its time, and dangling words at its ends. */
    public static String taskText(String rest, String language) {
        String text = rest.trim();
        Matcher m = (language.equals("he") ? HE_LEAD : EN_LEAD).matcher(text);
        if (m.find()) {
            text = text.substring(m.end());
        }
        if (language.equals("he")) {
            text = text.replaceAll("(?U)^(?:ש|ל)(?=\\s)", "")
                    .replaceAll("(?U)\\s+כ(?:בוצע|גמור|בוצעה)\\s*$", "")
                    .replaceAll("(?U)\\s*,?\\s*(?:תסמן|תסמני|סמן)(?:\\s+(?:את זה|שזה נעשה|שזה בוצע))?\\s*$", "")
                    .replaceAll("(?U)\\s*,?\\s*(?:תזכיר|תזכירי)\\s+לי\\s*$", "");
        } else {
            text = text.replaceAll("(?iU)\\s+(?:as )?(?:done|complete|completed|finished)\\s*$", "")
                    .replaceAll("(?iU)\\s*,?\\s*(?:tick|check|cross|mark)\\s+(?:it|that|this)\\s+(?:off|done)\\s*$", "")
                    .replaceAll("(?iU)\\s*,?\\s*remind me\\s*$", "")
                    .replaceAll("(?iU)\\s+(?:from|off) my (?:tasks|to-?do(?: list)?|reminders)\\s*$", "")
                    .replaceAll("(?iU)\\s+to my (?:tasks|to-?do(?: list)?|to-?dos|reminders)\\s*$", "")
                    .replaceAll("(?iU)\\s+until i (?:do it|say stop|stop you|am done|'m done)\\s*$", "");
        }
        text = text.replaceAll(
                        "(?iU)\\s+(?:until|till|til)\\s+(?:i (?:say stop|stop you|do it|am done|'m done)|it'?s done|done)\\s*[.!]*$",
                        "")
                .replaceAll(
                        "(?U)\\s+עד\\s+ש(?:אגיד|אומר)\\s+(?:די|מספיק|לעצור)\\s*$|\\s+עד\\s+ש(?:אסיים|אעשה את זה)\\s*$",
                        "")
                .replaceAll("(?iU)^(?:to|that|about|at|on|in|by|for)\\s+", "")
                .replaceAll("(?iU)\\s+(?:at|on|in|by|for|from|to|every)\\s*$", "")
                .replaceAll("(?U)\\s+(?:ב|ב-|מ|עד|כל|ל|ל-)\\s*$", "")
                .replaceAll("(?U)\\s+(?:ל|ב)-?\\d{1,2}(?::\\d{2})?\\s*$", "")
                .replaceAll("\\s{2,}", " ")
                .replaceAll("^[\\s,.:;!\\-]+|[\\s,.:;!?\\-]+$", "");
        return text;
    }
}
