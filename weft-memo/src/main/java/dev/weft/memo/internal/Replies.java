package dev.weft.memo.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.language.BareAnswers;
import dev.weft.memo.MemoTools;
import dev.weft.memo.data.ReminderTimes;
import dev.weft.plan.PlanStep;
import dev.weft.plan.StepOutcome;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What Memo says, in the user's language: what each step did, what it could not do and why, and the
 * question or approval a run waits for. Templates only, no model. Stateless.
 */
public final class Replies {
    private static final Pattern THANKS = Pattern.compile("(?iU)\\b(?:thanks?|thank you)\\b|תודה");
    private static final Pattern BYE = Pattern.compile("(?iU)\\b(?:bye|good night)\\b|ביי|לילה טוב|להתראות");
    private static final DateTimeFormatter EN_TIME = DateTimeFormatter.ofPattern("EEE d MMM, HH:mm", Locale.ENGLISH);
    private static final DateTimeFormatter EN_DAY = DateTimeFormatter.ofPattern("EEE d MMM", Locale.ENGLISH);
    private static final DateTimeFormatter HE_TIME = DateTimeFormatter.ofPattern("d.M 'בשעה' HH:mm");
    private static final DateTimeFormatter HE_DAY = DateTimeFormatter.ofPattern("d.M");

    private Replies() {}

    /**
     * The answer to a line that only says no, yes or "ok" when nothing waits for one (a waiting
     * question or approval takes them first, in {@code Memo.converse}): the language layer's {@link
     * BareAnswers#acknowledgement}, the same the concierge gives. Empty for any other line.
     */
    public static Optional<String> acknowledgement(String message, String language) {
        return BareAnswers.acknowledgement(message, language);
    }

    /** The offline answer to small talk: a greeting, thanks, goodbye, or an honest "not yet". */
    public static String conversation(String message, String language) {
        Optional<String> acknowledged = acknowledgement(message, language);
        if (acknowledged.isPresent()) {
            return acknowledged.get();
        }
        if (THANKS.matcher(message).find()) {
            return Texts.of(language, "You're welcome!", "בשמחה!");
        }
        if (BYE.matcher(message).find()) {
            return Texts.of(language, "Bye! I'm here when you need me.", "ביי! אני כאן כשתצטרך.");
        }
        if (message.matches(
                "(?iU)^(?:hi|hello|hey|good (?:morning|evening)|how are you|היי|הי|שלום|בוקר טוב|ערב טוב|מה שלומך|מה נשמע)\\b.*")) {
            return Texts.of(
                    language,
                    "Hi! How can I help? I can keep your calendar, set reminders, keep your tasks and lists.",
                    "היי! איך אפשר לעזור? אני יכול לנהל את היומן, לקבוע תזכורות ולנהל משימות ורשימות.");
        }
        return Texts.of(
                language,
                "I'm not sure how to help with that yet. I can keep your calendar, set reminders, and keep your tasks"
                        + " and lists — try \"schedule a meeting with Dana tomorrow at 3pm\" or \"remind me tomorrow at 9"
                        + " to call Dana\".",
                "עדיין לא ברור לי איך לעזור בזה. אני יכול לנהל את היומן, לקבוע תזכורות ולנהל משימות ורשימות — נסה"
                        + " \"תקבע פגישה עם דנה מחר ב-15:00\" או \"תזכיר לי מחר ב-9 להתקשר לדנה\".");
    }

    /**
     * The answer to words about a change that ask for none ({@code negated}: "don't delete the
     * meeting"; {@code question}: "should I cancel it?"; {@code past}: "I deleted the wrong list"):
     * nothing was done, and how to ask for what they might want.
     */
    public static String notACommand(String kind, String language) {
        return switch (kind) {
            case "negated" ->
                Texts.of(language, "OK, I won't. Nothing was changed.", "בסדר, לא אעשה את זה. לא שיניתי כלום.");
            case "past" ->
                Texts.of(
                        language,
                        "I didn't change anything now. If it was something I did, \"undo\" takes back your last change.",
                        "לא שיניתי כלום עכשיו. אם זה משהו שעשיתי, \"בטל את זה\" מחזיר את השינוי האחרון.");
            default ->
                Texts.of(
                        language,
                        "I didn't change anything. If you want me to, say it as a request, e.g. \"delete the dentist"
                                + " appointment\".",
                        "לא שיניתי כלום. אם תרצה שאעשה את זה, אפשר לבקש, למשל \"תמחק את התור לרופא השיניים\".");
        };
    }

    /**
     * The honest answer to a request Memo does not do, by its topic ({@code weather}, {@code music},
     * …): what it cannot do, and what it can. Nothing was done.
     */
    public static String outOfScope(String topic, String language) {
        String[] cannot = switch (topic) {
            case "weather" -> new String[] {"I can't check the weather.", "אני לא יכול לבדוק את מזג האוויר."};
            case "music" -> new String[] {"I can't play music or podcasts.", "אני לא יכול להשמיע מוזיקה או פודקאסטים."};
            case "smart_home" ->
                new String[] {"I can't control lights or devices at home.", "אני לא יכול לשלוט באורות או במכשירים בבית."
                };
            case "food" ->
                new String[] {
                    "I can't order food or book tables, but I can remind you to.",
                    "אני לא יכול להזמין אוכל או מקום במסעדה, אבל אני יכול להזכיר לך."
                };
            case "news" ->
                new String[] {"I can't look up news, scores or prices.", "אני לא יכול לבדוק חדשות, תוצאות או מחירים."};
            case "trivia" -> new String[] {"I can't look things up on the web.", "אני לא יכול לחפש דברים ברשת."};
            case "transport" ->
                new String[] {
                    "I can't book rides or tickets, or give directions.",
                    "אני לא יכול להזמין נסיעות או כרטיסים, או לנווט."
                };
            case "shopping" ->
                new String[] {"I can't shop or track orders.", "אני לא יכול לקנות או לעקוב אחרי הזמנות."};
            case "messaging" ->
                new String[] {
                    "I can't send texts or make calls; I can send email once your mailbox is connected.",
                    "אני לא יכול לשלוח הודעות או להתקשר; אני יכול לשלוח מייל אחרי שחיברת את תיבת הדואר."
                };
            case "math" -> new String[] {"I can't do calculations or conversions.", "אני לא יכול לחשב או להמיר."};
            case "entertainment" ->
                new String[] {
                    "I can't tell jokes or stories, or play games.", "אני לא יכול לספר בדיחות או סיפורים, או לשחק."
                };
            case "recommendation" ->
                new String[] {
                    "I can't recommend places, recipes or things to do.",
                    "אני לא יכול להמליץ על מקומות, מתכונים או בילויים."
                };
            case "device" ->
                new String[] {"I can't change your device's settings.", "אני לא יכול לשנות הגדרות במכשיר."};
            case "payments" ->
                new String[] {
                    "I can't make payments or see your bank account, but I can remind you to pay.",
                    "אני לא יכול לשלם או לראות את חשבון הבנק שלך, אבל אני יכול להזכיר לך לשלם."
                };
            default -> new String[] {"I can't help with that.", "בזה אני לא יכול לעזור."};
        };
        return Texts.of(
                language,
                cannot[0] + " I can keep your calendar, reminders and alarms, tasks and lists, your email and your"
                        + " notes.",
                cannot[1] + " אני יכול לנהל את היומן, תזכורות ושעונים מעוררים, משימות ורשימות, את המייל והפתקים שלך.");
    }

    /** What an undo did ({@code Memo}'s undo report: {@code none}, {@code preview}, {@code status}, {@code error}). */
    public static String undone(String language, JsonNode undo) {
        String message = undo.path("message").asText("");
        String what = message.isEmpty() ? "" : " \"" + message + "\"";
        if (undo.path("none").asBoolean()) {
            return Texts.of(language, "There's nothing of yours for me to undo.", "אין לי מה לבטל.");
        }
        if (undo.path("preview").asBoolean()) {
            return Texts.of(language, "I would undo" + what + ".", "הייתי מבטל את" + what + ".");
        }
        if (undo.path("already").asBoolean()) {
            return Texts.of(language, "That was undone already:" + what + ".", "זה כבר בוטל:" + what + ".");
        }
        if (undo.path("nothing").asBoolean()) {
            return Texts.of(language, "There was nothing to undo in" + what + ".", "לא היה מה לבטל ב" + what + ".");
        }
        if (undo.has("error")) {
            return Texts.of(
                    language,
                    "I couldn't undo all of" + what + ": " + undo.path("error").asText(),
                    "לא הצלחתי לבטל את כל" + what + ": " + undo.path("error").asText());
        }
        return Texts.of(language, "Undone:" + what + ".", "ביטלתי את" + what + ".");
    }

    /** The answer to "what time is it?": the user's time and day, in their zone. */
    public static String clock(java.time.ZonedDateTime now, String language) {
        return Texts.of(
                language,
                "It's " + now.format(DateTimeFormatter.ofPattern("HH:mm, EEEE d MMMM", Locale.ENGLISH)) + ".",
                "השעה " + now.format(DateTimeFormatter.ofPattern("HH:mm")) + ", "
                        + now.format(DateTimeFormatter.ofPattern("EEEE d בMMMM", Locale.forLanguageTag("he")))
                        + ".");
    }

    /**
     * Help about what the user asked ("how do lists work?": the lines on lists), or all of it when the
     * question names no part of Memo.
     */
    public static String help(String language, String question) {
        String all = help(language);
        String topic = HELP_TOPICS.entrySet().stream()
                .filter(e -> e.getValue().matcher(question).find())
                .map(java.util.Map.Entry::getKey)
                .findFirst()
                .orElse("");
        if (topic.isEmpty()) {
            return all;
        }
        // A line is about a topic when its first words are ("- keep lists …", "- set reminders …").
        List<String> lines = all.lines()
                .filter(line -> line.startsWith("- ")
                        && HELP_TOPICS
                                .get(topic)
                                .matcher(line.substring(2, Math.min(line.length(), 26)))
                                .find())
                .toList();
        if (lines.isEmpty()) {
            return all;
        }
        return String.join("\n", lines).replaceAll("(?m)^- ", Texts.of(language, "I can ", "אני יכול "))
                + Texts.of(language, "\nSay \"help\" for everything I do.", "\nכתוב \"עזרה\" כדי לראות הכל.");
    }

    private static final java.util.Map<String, Pattern> HELP_TOPICS = new java.util.LinkedHashMap<>();

    static {
        HELP_TOPICS.put("lists", Pattern.compile("(?iU)\\blists?\\b|רשימ"));
        HELP_TOPICS.put(
                "reminders",
                Pattern.compile("(?iU)\\b(?:remind\\w*|alarms?)\\b|תזכור|שעון|set reminders|לקבוע תזכורות"));
        HELP_TOPICS.put("tasks", Pattern.compile("(?iU)\\btasks?\\b|משימ"));
        HELP_TOPICS.put("calendar", Pattern.compile("(?iU)\\b(?:calendar|events?|meetings?)\\b|יומן|אירוע|פגיש"));
        HELP_TOPICS.put("email", Pattern.compile("(?iU)\\b(?:e-?mails?|mail|mailbox)\\b|מייל|דואר"));
        HELP_TOPICS.put(
                "memory",
                Pattern.compile("(?iU)\\b(?:notes?|memor\\w*|remember|thoughts?|ideas?)\\b|זיכרו|לזכור|רעיונ|מחשב"));
        HELP_TOPICS.put("undo", Pattern.compile("(?iU)\\bundo\\b|לבטל|בטל"));
    }

    /** Seed 002's help template. */
    public static String help(String language) {
        return Texts.of(
                language,
                "I'm Memo. I can:\n"
                        + "- keep your calendar: schedule, move and cancel events, once or repeating, and say what is"
                        + " on it (\"schedule a meeting with Dana tomorrow at 3pm\", \"what's on my calendar"
                        + " tomorrow?\")\n"
                        + "- set reminders, once or repeating (\"remind me every day at 8 to take my pills\")\n"
                        + "- keep tasks: add, list, complete and delete them (\"what are my tasks for today?\")\n"
                        + "- keep lists (\"add milk to the shopping list\")\n"
                        + "- read, answer and send your email, once your mailbox is connected\n"
                        + "- remember your thoughts and ideas, and find them again (\"remember that Dana prefers"
                        + " mornings\", \"what did I say about the budget?\")\n"
                        + "- undo what I just did (\"undo\")\n"
                        + "Several requests in one message are fine (\"…and also…\", \"…then…\").",
                "אני Memo. אני יכול:\n"
                        + "- לנהל את היומן: לקבוע, להזיז ולבטל אירועים, חד פעמיים או חוזרים, ולהגיד מה יש בו (\"תקבע"
                        + " פגישה עם דנה מחר ב-15:00\", \"מה יש לי ביומן מחר?\")\n"
                        + "- לקבוע תזכורות, חד פעמיות או חוזרות (\"תזכיר לי כל יום ב-8 לקחת כדורים\")\n"
                        + "- לנהל משימות: להוסיף, להציג, לסמן כבוצע ולמחוק (\"מה המשימות שלי להיום?\")\n"
                        + "- לנהל רשימות (\"תוסיף חלב לרשימת הקניות\")\n"
                        + "- לקרוא, לענות ולשלוח מיילים, אחרי שחיברת את תיבת הדואר\n"
                        + "- לזכור מחשבות ורעיונות ולמצוא אותם שוב (\"תזכור שדנה מעדיפה בקרים\", \"מה אמרתי על"
                        + " התקציב?\")\n"
                        + "- לבטל את מה שעשיתי עכשיו (\"בטל את זה\")\n"
                        + "אפשר כמה בקשות בהודעה אחת (\"…וגם…\", \"…ואז…\").");
    }

    /**
     * The reply to a message: a line per step, in plan order, then the question or approval the run
     * waits for.
     */
    public static String reply(
            String language,
            List<PlanStep> steps,
            Map<String, StepOutcome> outcomes,
            Map<String, JsonNode> interrupts,
            ZoneId zone) {
        List<String> lines = new ArrayList<>();
        java.util.Set<String> answered = new java.util.HashSet<>();
        for (PlanStep step : steps) {
            if (step.action().equals(SecondBrainResolver.ANSWER) && outcomes.containsKey(step.id())) {
                // The answer speaks for what its step found; the finding itself is not said twice.
                answered.addAll(step.dependsOn());
            }
        }
        for (PlanStep step : steps) {
            StepOutcome outcome = outcomes.get(step.id());
            JsonNode waiting = interrupts.get("step:" + step.id());
            if (answered.contains(step.id()) && outcome != null && outcome.status() == StepOutcome.Status.SUCCEEDED) {
                continue;
            }
            if (waiting != null) {
                lines.add(waiting(language, waiting, zone));
            } else if (outcome != null) {
                lines.add(line(language, step, outcome, zone));
            }
        }
        JsonNode planApproval = interrupts.get("plan");
        if (planApproval != null) {
            lines.add(Texts.of(language, "Shall I go ahead with this plan? (yes/no)", "להמשיך עם התוכנית? (כן/לא)"));
        }
        return String.join("\n", lines).trim();
    }

    /**
     * What a run waiting on {@code payload} says to the user: its question, or, for an approval, the
     * sentence that names what the call will change ("This will delete your 3 reminders: …").
     */
    public static String pending(String language, JsonNode payload, ZoneId zone) {
        return waiting(language, payload, zone);
    }

    private static String waiting(String language, JsonNode payload, ZoneId zone) {
        if (payload.path("type").asText().equals("clarify")) {
            StringBuilder text = new StringBuilder(payload.path("question").asText());
            payload.path("options").forEach(o -> text.append("\n").append(o.asText()));
            return text.toString();
        }
        JsonNode args = payload.path("args");
        if (payload.path("code").asText().equals(dev.weft.core.ErrorCode.E_OUTCOME_UNKNOWN.name())) {
            // The words a person decides by: the mail may be out already, and only they can say whether to send it
            // again.
            String what = payload.path("tool").asText().equals(MemoTools.MAIL)
                    ? MailReplies.pending(language, args)
                    : payload.path("tool").asText() + " "
                            + args.path("operation").asText();
            return Texts.of(
                    language,
                    "This may have been sent — send again? (yes/no) [E_OUTCOME_UNKNOWN]\nI was asked to " + what,
                    "ייתכן שזה כבר נשלח — לשלוח שוב? (כן/לא) [E_OUTCOME_UNKNOWN]\nהתבקשתי " + what);
        }
        JsonNode touches = payload.path("touches");
        boolean range = payload.path("tool").asText().equals(MemoTools.CALENDAR)
                && args.path("operation").asText().equals("delete")
                && !args.has("eventId");
        String what = range && !touches.isEmpty()
                // A range says its days, then the events in it.
                ? CalendarReplies.pending(language, args, zone) + ": " + named(language, touches)
                : touches.isArray() && !touches.isEmpty()
                        ? touching(language, args.path("operation").asText(), touches)
                        : payload.path("tool").asText().equals(MemoTools.CALENDAR)
                                ? CalendarReplies.pending(language, args, zone)
                                : payload.path("tool").asText().equals(MemoTools.MAIL)
                                        ? MailReplies.pending(language, args)
                                        : payload.path("tool").asText().equals(dev.weft.workflow.A2aSendTool.NAME)
                                                // The remote agent's name and the very words it will be sent.
                                                ? Texts.of(
                                                        language,
                                                        "ask "
                                                                + args.path("agent")
                                                                        .asText() + ": \""
                                                                + args.path("text")
                                                                        .asText() + "\"",
                                                        "לשאול את "
                                                                + args.path("agent")
                                                                        .asText() + ": \""
                                                                + args.path("text")
                                                                        .asText() + "\"")
                                                : switch (args.path("operation").asText()) {
                                                    case "deleteAll" ->
                                                        Texts.of(
                                                                language,
                                                                "delete all the matching tasks",
                                                                "למחוק את כל המשימות המתאימות");
                                                    case "deleteMultiple" ->
                                                        Texts.of(language, "delete several items", "למחוק כמה פריטים");
                                                    default ->
                                                        payload.path("tool").asText() + " "
                                                                + args.path("operation")
                                                                        .asText();
                                                };
        // A change the user's words did not ask for (held for them) says so before what it would do.
        boolean held = payload.path("held").asBoolean(false);
        return Texts.of(
                language,
                (held ? "You didn't ask for this in so many words, so I'm checking first. " : "") + "This will " + what
                        + ". Shall I go ahead? (yes/no)",
                (held ? "לא ביקשת את זה במפורש, אז אני בודק קודם. " : "") + "זה עומד " + what + ". להמשיך? (כן/לא)");
    }

    /** The names of what a call touches, the first few of them: "call Dana, pills and 3 more". */
    private static String named(String language, JsonNode touches) {
        List<String> names = new ArrayList<>();
        touches.forEach(t -> names.add(t.path("text").asText()));
        int count = names.size();
        return String.join(", ", names.subList(0, Math.min(count, NAMED)))
                + (count > NAMED
                        ? Texts.of(language, " and " + (count - NAMED) + " more", " ועוד " + (count - NAMED))
                        : "");
    }

    /** How many tasks are shown by name in a question; the rest are counted. */
    private static final int NAMED = 5;

    /**
     * What a task call would do, naming the tasks it touches: "delete your 3 reminders: call Dana,
     * pills, stretch", "למחוק את 3 התזכורות שלך: …".
     */
    static String touching(String language, String operation, JsonNode touches) {
        int count = touches.size();
        java.util.Set<String> kinds = new java.util.HashSet<>();
        List<String> names = new ArrayList<>();
        for (JsonNode t : touches) {
            kinds.add(t.path("kind").asText("task"));
            if (names.size() < NAMED) {
                names.add(t.path("text").asText());
            }
        }
        String listed = named(language, touches);
        boolean one = count == 1;
        // Named for what they all are: reminders, events, or tasks (a mix is "tasks").
        String kind = kinds.size() == 1 ? kinds.iterator().next() : "task";
        String en = one ? "your " + kind + " \"" + names.get(0) + "\"" : "your " + count + " " + kind + "s: " + listed;
        String he = one
                ? switch (kind) {
                            case "reminder" -> "התזכורת שלך";
                            case "event" -> "האירוע שלך";
                            default -> "המשימה שלך";
                        }
                        + " \"" + names.get(0) + "\""
                : count
                        + switch (kind) {
                            case "reminder" -> " התזכורות שלך: ";
                            case "event" -> " האירועים שלך: ";
                            default -> " המשימות שלך: ";
                        }
                        + listed;
        return switch (operation) {
            case "complete", "completeAll" ->
                Texts.of(language, "mark " + en + " as done", "לסמן את " + he + " כבוצעו");
            case "update", "updateAll" -> Texts.of(language, "change " + en, "לשנות את " + he);
            default -> Texts.of(language, "delete " + en, "למחוק את " + he);
        };
    }

    private static String line(String language, PlanStep step, StepOutcome outcome, ZoneId zone) {
        return switch (outcome.status()) {
            case SUCCEEDED -> done(language, step, outcome.result(), zone);
            case PREVIEWED ->
                // Words are only words: a preview shows what Memo would say, and what it would call.
                outcome.tool().equals(MemoResolvers.RESPOND)
                        ? outcome.args().path("text").asText()
                        : Texts.of(language, "I would call ", "הייתי קורא ל-") + outcome.tool() + " " + outcome.args();
            case SKIPPED ->
                outcome.reason().orElse("").equals("rejected")
                        // The user said no to the change: said back as a person would, in their language.
                        ? Texts.of(
                                language,
                                "OK, I left it as it was. Nothing was changed.",
                                "בסדר, השארתי את זה כמו שהיה. לא שיניתי כלום.")
                        : Texts.of(
                                language,
                                "Not done: " + outcome.reason().orElse("skipped") + ".",
                                "לא בוצע: " + outcome.reason().orElse("דולג") + ".");
            case FAILED -> failed(language, step, outcome);
        };
    }

    private static String failed(String language, PlanStep step, StepOutcome outcome) {
        String code = outcome.error().map(e -> e.code().name()).orElse("E_TOOL_FAILED");
        String message = outcome.error().map(e -> e.message()).orElse("");
        return switch (code) {
            case "E_NO_RESOLVER" -> Texts.of(language, "I can't do that yet.", "את זה אני עדיין לא יודע לעשות.");
            case "E_STEP_MISMATCH" ->
                // A model steered past its step (by text it read): say so plainly; nothing was done.
                Texts.of(
                        language,
                        "I stopped a step: what came back was not what you asked for, so I did nothing there.",
                        "עצרתי צעד: מה שחזר לא היה מה שביקשת, ולכן לא עשיתי שם כלום.");
            case "E_NOT_FOUND" -> message.replaceFirst("^step '[^']*': ", "") + ".";
            case "E_MAIL_NOT_CONFIGURED", "E_MAIL_UNAVAILABLE" ->
                MailReplies.failed(
                        language,
                        dev.weft.core.ErrorCode.valueOf(code),
                        message,
                        message.replaceFirst("(?s).*--user (\\S+).*", "$1"));
            default -> Texts.of(language, "I couldn't do that: ", "לא הצלחתי: ") + message;
        };
    }

    private static String done(String language, PlanStep step, JsonNode result, ZoneId zone) {
        if (result.has("text") && result.size() == 1) {
            return result.get("text").asText();
        }
        if (step.capability().equals("a2a")) {
            // A remote agent's answer, in its own words, said as whose it is.
            return result.path("agent").asText() + ": " + result.path("text").asText();
        }
        if (step.capability().equals("gmail")) {
            return MailReplies.done(language, step.action(), result, zone);
        }
        if (step.capability().equals("second-brain")) {
            return MemoryReplies.done(language, step.action(), result, zone, java.time.Instant.now());
        }
        JsonNode task = result.path("task");
        switch (step.action()) {
            case "create_task", "update_task" -> {
                boolean reminder = task.has("reminder") || task.has("reminderRecurrence");
                String when = when(language, task, zone);
                String verb = step.action().equals("update_task")
                        ? Texts.of(language, "Updated", "עדכנתי")
                        : reminder
                                ? Texts.of(language, "I'll remind you:", "אזכיר לך:")
                                : Texts.of(language, "Added a task:", "הוספתי משימה:");
                return verb + " \"" + task.path("text").asText() + "\"" + (when.isEmpty() ? "" : " — " + when) + ".";
            }
            case "find_task" -> {
                JsonNode tasks = result.path("tasks");
                if (tasks.isEmpty()) {
                    JsonNode asked = step.constraints();
                    boolean reminders = asked.path("type").asText("").equals("reminder");
                    String window = asked.path("window").asText("all");
                    boolean then = !window.equals("all") && !window.isEmpty();
                    return reminders
                            ? Texts.of(
                                    language,
                                    then ? "You have no reminders then." : "You have no reminders.",
                                    then ? "אין לך תזכורות בזמן הזה." : "אין לך תזכורות.")
                            : Texts.of(
                                    language,
                                    then ? "You have no open tasks then." : "You have no open tasks.",
                                    then ? "אין לך משימות פתוחות בזמן הזה." : "אין לך משימות פתוחות.");
                }
                StringBuilder text = new StringBuilder(Texts.of(
                        language,
                        "You have " + tasks.size() + (tasks.size() == 1 ? " task:" : " tasks:"),
                        "יש לך " + tasks.size() + " משימות:"));
                return numbered(text, language, tasks, zone);
            }
            case "complete_task", "complete_tasks" -> {
                List<String> names = new ArrayList<>();
                result.path("previous")
                        .forEach(t -> names.add("\"" + t.path("text").asText() + "\""));
                return Texts.of(language, "Done: ", "בוצע: ") + String.join(", ", names) + ".";
            }
            case "delete_task", "delete_tasks" -> {
                int count = result.path("deleted").size();
                if (step.action().equals("delete_task") && count >= 1) {
                    return Texts.of(language, "Deleted ", "מחקתי את ") + "\""
                            + result.path("deleted").get(0).path("text").asText() + "\".";
                }
                return Texts.of(
                        language,
                        "Deleted " + count + (count == 1 ? " task." : " tasks."),
                        count == 1 ? "מחקתי משימה אחת." : "מחקתי " + count + " משימות.");
            }
            case "create_list", "add_item", "find_list", "toggle_item", "delete_item" -> {
                JsonNode list = result.path("list");
                if (list.isMissingNode()) {
                    return lists(language, result.path("lists"));
                }
                return listText(language, list, step.action());
            }
            case "delete_list" -> {
                return Texts.of(language, "Deleted the list ", "מחקתי את הרשימה ") + "\""
                        + result.path("deleted").path(0).path("name").asText() + "\".";
            }
            case "create_event",
                    "create_recurring",
                    "update_event",
                    "delete_event",
                    "delete_events",
                    "end_recurring",
                    "find_event",
                    "list_events",
                    "check_conflicts",
                    "get_recurring" -> {
                return CalendarReplies.done(language, step.action(), result, zone);
            }
            default -> {
                return Texts.of(language, "Done.", "בוצע.");
            }
        }
    }

    private static String lists(String language, JsonNode lists) {
        if (lists.isEmpty()) {
            return Texts.of(language, "You have no lists yet.", "אין לך רשימות עדיין.");
        }
        List<String> names = new ArrayList<>();
        lists.forEach(
                l -> names.add(l.path("name").asText() + " (" + l.path("items").size() + ")"));
        return Texts.of(language, "Your lists: ", "הרשימות שלך: ") + String.join(", ", names);
    }

    private static String listText(String language, JsonNode list, String action) {
        String head = switch (action) {
            case "create_list" -> Texts.of(language, "Created the list ", "יצרתי את הרשימה ");
            case "add_item" -> Texts.of(language, "Added to ", "הוספתי לרשימה ");
            case "toggle_item", "delete_item" -> Texts.of(language, "Updated ", "עדכנתי את ");
            default -> "";
        };
        StringBuilder text = new StringBuilder(head)
                .append("\"")
                .append(list.path("name").asText())
                .append("\":");
        if (list.path("items").isEmpty()) {
            text.append(Texts.of(language, " (empty)", " (ריקה)"));
        }
        list.path("items")
                .forEach(item -> text.append("\n")
                        .append(item.path("checked").asBoolean() ? "☑ " : "☐ ")
                        .append(item.path("text").asText()));
        return text.toString();
    }

    /** {@code text} followed by {@code tasks}, a numbered line each with when it is due: "1. call Dana (Wed 25 Nov, 09:00)". */
    static String numbered(StringBuilder text, String language, JsonNode tasks, ZoneId zone) {
        int i = 1;
        for (JsonNode task : tasks) {
            String when = when(language, task, zone);
            text.append("\n")
                    .append(i++)
                    .append(". ")
                    .append(task.path("text").asText())
                    .append(when.isEmpty() ? "" : " (" + when + ")");
        }
        return text.toString();
    }

    /** When a task is due or repeats, for a person. */
    static String when(String language, JsonNode task, ZoneId zone) {
        JsonNode recurrence = task.path("reminderRecurrence");
        if (recurrence.isObject()) {
            String time = recurrence.path("time").asText("");
            String at = time.isEmpty() ? "" : Texts.of(language, " at ", " ב-") + time;
            return switch (recurrence.path("type").asText()) {
                case "nudge" ->
                    Texts.of(
                            language,
                            "every " + recurrence.path("interval").asText(),
                            "כל "
                                    + recurrence
                                            .path("interval")
                                            .asText()
                                            .replace("minutes", "דקות")
                                            .replace("hours", "שעות"));
                case "daily" -> everyDays(language, recurrence.path("interval").asInt(1)) + at;
                case "weekly" -> {
                    List<DayOfWeek> days = List.copyOf(ReminderTimes.days(recurrence.path("days")));
                    yield days.isEmpty()
                            ? Texts.of(language, "every week", "כל שבוע") + at
                            : CalendarReplies.everyWeek(
                                            language,
                                            days,
                                            recurrence.path("interval").asInt(1))
                                    + at;
                }
                default -> {
                    List<DayOfWeek> days = List.copyOf(ReminderTimes.days(recurrence.path("days")));
                    int week = recurrence.path("week").asInt(0);
                    int interval = recurrence.path("interval").asInt(1);
                    int dayOfMonth = recurrence.path("dayOfMonth").asInt(0);
                    if (recurrence.has("week") && !days.isEmpty() && (week == -1 || (week >= 1 && week <= 5))) {
                        yield CalendarReplies.everyMonthOn(language, week, days, interval) + at;
                    }
                    yield dayOfMonth >= 1 && dayOfMonth <= 31
                            ? CalendarReplies.everyMonthOn(language, List.of(dayOfMonth), interval) + at
                            : Texts.of(language, "every month", "כל חודש") + at;
                }
            };
        }
        String due = task.path("dueDate").asText("");
        if (due.isEmpty()) {
            return "";
        }
        try {
            if (due.length() == 10) {
                LocalDate day = LocalDate.parse(due);
                return language.equals("he") ? day.format(HE_DAY) : day.format(EN_DAY);
            }
            OffsetDateTime at =
                    OffsetDateTime.parse(due).atZoneSameInstant(zone).toOffsetDateTime();
            return language.equals("he") ? at.format(HE_TIME) : at.format(EN_TIME);
        } catch (DateTimeParseException e) {
            return due;
        }
    }

    /** "every day", "every 2 days". */
    private static String everyDays(String language, int interval) {
        return interval <= 1
                ? Texts.of(language, "every day", "כל יום")
                : Texts.of(language, "every " + interval + " days", "כל " + interval + " ימים");
    }

    /** A reminder that fell due, as the user reads it; one that fired late says when it was due. */
    public static String reminder(String language, String text, java.time.Instant dueAt, boolean late, ZoneId zone) {
        StringBuilder out = new StringBuilder(Texts.of(language, "⏰ Reminder: ", "⏰ תזכורת: ")).append(text);
        if (late) {
            OffsetDateTime at = dueAt.atZone(zone).toOffsetDateTime();
            out.append(Texts.of(
                    language,
                    " (late: it was due " + at.format(EN_TIME) + ")",
                    " (באיחור: היה אמור ב" + at.format(HE_TIME) + ")"));
        }
        return out.toString();
    }
}
