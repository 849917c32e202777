package dev.weft.memo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.memo.internal.SecondBrainResolver;
import dev.weft.plan.Plan;
import dev.weft.plan.PlanStep;
import dev.weft.time.Grain;
import dev.weft.time.Language;
import dev.weft.time.TimeExpression;
import dev.weft.time.TimeParser;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The planner that needs no model: bilingual rules over the message and {@code weft-time}'s time
 * expressions. It splits a message into parts — independent ones ("and also", "וגם", a comma before a
 * new request) become parallel steps, a part after "then" ("ואז", "אחר כך") depends on the part before
 * it — and gives each part a capability and an action by its words (seed 002's routing: lists only
 * with the word list/רשימה, "remind me" is a task, a time without other words is a calendar event),
 * with constraints in the form the resolvers read. Thread-safe.
 */
public final class OfflinePlanner implements Planner {
    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.UNICODE_CHARACTER_CLASS;

    private static final String EN_VERBS = "remind|add|create|make|delete|remove|show|list|send|schedule|set|mark|"
            + "complete|cancel|tell|what|check|put|move|update|change|book|tick|start";
    private static final String HE_VERBS =
            "תזכיר|תזכירי|הזכר|תוסיף|תוסיפי|הוסף|הוסיפי|צור|תצור|תיצור|צרי|מחק|תמחק|תמחקי|"
                    + "הראה|תראה|תראי|תשלח|שלח|תשלחי|קבע|תקבע|תקבעי|סמן|תסמן|תסמני|בטל|תבטל|תבטלי|עדכן|תעדכן|"
                    + "מה|תרשום|רשום|תכתוב";

    /** Where a message splits: a connector, and whether the part after it depends on the part before. */
    private static final Pattern EN_SPLIT = Pattern.compile(
            "\\s*(?:,\\s*)?\\b(?<then>and then|then|after that|afterwards)\\b\\s*"
                    + "|\\s*(?:,\\s*)?\\b(?:and also|also)\\b\\s*"
                    + "|\\s*;\\s*"
                    + "|\\s*,\\s*(?=(?:" + EN_VERBS + ")\\b)"
                    + "|\\s+and\\s+(?=(?:" + EN_VERBS + ")\\b)",
            FLAGS);

    private static final Pattern HE_SPLIT = Pattern.compile(
            "\\s*,?\\s*(?<then>ואז|ואחר כך|אחר כך|ולאחר מכן|לאחר מכן)\\s+"
                    + "|\\s*,?\\s*וגם\\s+"
                    + "|\\s*;\\s*"
                    + "|\\s*,\\s*(?=(?:" + HE_VERBS + ")(?:\\s|$))"
                    + "|\\s+ו(?=(?:" + HE_VERBS + ")(?:\\s|$))",
            FLAGS);

    private static final Pattern GREETING = Pattern.compile(
            "^(?:hi|hello|hey|good (?:morning|evening|night)|thanks?|thank you|how are you|bye|"
                    + "היי|הי|שלום|תודה|תודה רבה|בוקר טוב|ערב טוב|לילה טוב|מה שלומך|מה נשמע|ביי)\\b[\\s!.?,]*.*$",
            FLAGS);
    private static final Pattern META = Pattern.compile(
            "\\b(?:help|what can you do|how do (?:i|you)|who are you)\\b|עזרה|מה אתה יודע|מה את יודעת|מה אתה יכול|"
                    + "מה את יכולה|מי אתה|מי את",
            FLAGS);
    private static final Pattern HOW_TO = Pattern.compile(
            "^(?:how (?:do|can|should) (?:i|you)|how to|what can you do|who are you|help)\\b|^איך\\s"
                    + "|^(?:מה אתה (?:יכול|יודע)|מה את (?:יכולה|יודעת)|מי אתה|מי את|עזרה)",
            FLAGS);
    private static final Pattern EMAIL = Pattern.compile(
            "\\b(?:e-?mails?|mails?|inbox|newsletters?)\\b|אימייל|מייל|דואר|ניוזלטר"
                    + "|^(?:please\\s+)?(?:reply|respond)\\s+to\\s+(?!(?:the\\s+)?(?:event|meeting|invite|invitation)\\b)\\S"
                    + "|^(?:בבקשה\\s+)?(?:תענה|תעני|תשיב|תשיבי|ענה|השב)\\s+ל",
            FLAGS);
    private static final Pattern LIST = Pattern.compile("\\blists?\\b|\\bnotes?\\b|רשימ|פתק", FLAGS);
    private static final Pattern TASK = Pattern.compile(
            "\\b(?:remind(?:er|ers)?|tasks?|to-?dos?|to do|due|overdue|i need to|i have to|don'?t forget)\\b"
                    + "|תזכיר|תזכורת|תזכורות|להזכיר|משימ|מטל|לעשות|אני צריך|אני צריכה|אל תשכח",
            FLAGS);
    private static final Pattern CALENDAR = Pattern.compile(
            "\\b(?:meetings?|events?|calendar|schedule|appointments?|agenda)\\b|פגיש|אירוע|יומן|לוח שנה|לו\"ז|לוז",
            FLAGS);

    private static final Pattern DELETE = Pattern.compile(
            "\\b(?:delete|remove|cancel|erase|clear)\\b|מחק|תמחק|תמחקי|למחוק|הסר|תסיר|בטל|תבטל|לבטל|תוריד|הורד|תורידי",
            FLAGS);
    private static final Pattern COMPLETE = Pattern.compile(
            "\\b(?:mark .* (?:as )?(?:done|complete)|i (?:did|finished|completed)|done with|completed?|finished)\\b"
                    + "|סיימתי|עשיתי|בוצע|סמן .*כ(?:בוצע|גמור)|תסמן",
            FLAGS);
    private static final Pattern QUERY = Pattern.compile(
            "^(?:what|which|show|list|tell me|send me|do i have|give me|get|find|look up|search)\\b|\\?\\s*$"
                    + "|^(?:מה|אילו|איזה|תראה|הראה|תראי|תשלח לי|שלח לי|תגיד לי|יש לי|תמצא|מצא|תחפש|חפש)",
            FLAGS);
    private static final Pattern UPDATE = Pattern.compile(
            "\\b(?:move|reschedule|postpone|change|update|push|rename)\\b|תזיז|הזז|תדחה|דחה|תעדכן|עדכן|שנה את|תשנה|תעביר|העבר",
            FLAGS);
    private static final Pattern ALL = Pattern.compile("\\ball\\b|\\bevery\\b|כל ה", FLAGS);
    private static final Pattern TOGGLE =
            Pattern.compile("\\b(?:tick|check off|cross off|mark|uncheck|untick)\\b|סמן|תסמן|תסמני|הסימון", FLAGS);
    private static final Pattern ADD =
            Pattern.compile("^(?:please\\s+)?(?:add|put)\\b|^(?:תוסיף|תוסיפי|הוסף|הוסיפי|תכניס|תרשום|רשום)", FLAGS);

    private static final DateTimeFormatter ISO = DateTimeFormatter.ISO_OFFSET_DATE_TIME;

    private final TimeParser time;

    public OfflinePlanner() {
        this(TimeParser.create());
    }

    public OfflinePlanner(TimeParser time) {
        this.time = time;
    }

    /** {@code he} when the text has Hebrew letters, else {@code en}. */
    public static String languageOf(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '\u0590' && c <= '\u05FF') {
                return "he";
            }
        }
        return "en";
    }

    /** One part of a message, and whether it depends on the part before it. */
    record Part(String text, boolean dependsOnPrevious) {}

    static List<Part> split(String message, String language) {
        Pattern split = language.equals("he") ? HE_SPLIT : EN_SPLIT;
        List<Part> parts = new ArrayList<>();
        Matcher m = split.matcher(message);
        int at = 0;
        boolean dependent = false;
        while (m.find()) {
            String part = message.substring(at, m.start()).trim();
            if (!part.isEmpty()) {
                parts.add(new Part(part, dependent && !parts.isEmpty()));
            }
            dependent = m.group("then") != null;
            at = m.end();
        }
        String last = message.substring(at).trim();
        if (!last.isEmpty()) {
            parts.add(new Part(last, dependent && !parts.isEmpty()));
        }
        return parts;
    }

    @Override
    public Plan plan(String message, Context context) {
        String text = message.strip();
        List<Part> parts = split(text, context.language());
        List<PlanStep> steps = new ArrayList<>();
        boolean operation = false;
        for (int i = 0; i < parts.size(); i++) {
            String id = String.valueOf((char) ('A' + Math.min(i, 25))) + (i >= 26 ? String.valueOf(i) : "");
            List<String> dependsOn = parts.get(i).dependsOnPrevious()
                    ? List.of(steps.get(steps.size() - 1).id())
                    : List.of();
            PlanStep step = step(id, parts.get(i).text(), context, dependsOn);
            if (!dependsOn.isEmpty()) {
                step = referring(step, parts.get(i).text(), steps.get(steps.size() - 1), context.language());
            }
            operation |=
                    !step.capability().equals("general") && !step.capability().equals("meta");
            steps.add(step);
        }
        if (steps.isEmpty()) {
            steps.add(new PlanStep(
                    "A", "general", "respond", Json.object().put("message", text), Json.object(), List.of()));
        }
        answersFromMemory(steps, parts);
        String intent = operation
                ? (steps.size() > 1 ? "multi_task" : "operation")
                : steps.get(0).capability().equals("meta") ? "meta" : "conversation";
        double confidence = operation ? (steps.size() > 1 ? 0.85 : 0.9) : 0.7;
        return new Plan(intent, confidence, steps);
    }

    /**
     * After each step that finds or summarizes memories, a step that answers the user from what it
     * found ({@code answer_from_memory}, with the part's words as the question), at the end of the plan
     * so that the other steps keep their ids.
     */
    private static void answersFromMemory(List<PlanStep> steps, List<Part> parts) {
        List<PlanStep> answers = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            PlanStep step = steps.get(i);
            if (step.capability().equals("second-brain")
                    && (step.action().equals("search_memory") || step.action().equals("summarize_project"))) {
                int n = steps.size() + answers.size();
                String id = String.valueOf((char) ('A' + Math.min(n, 25))) + (n >= 26 ? String.valueOf(n) : "");
                ObjectNode c = Json.object();
                c.put("question", i < parts.size() ? parts.get(i).text() : "");
                answers.add(new PlanStep(
                        id, "second-brain", SecondBrainResolver.ANSWER, c, Json.object(), List.of(step.id())));
            }
        }
        steps.addAll(answers);
    }

    private static final Pattern EACH = Pattern.compile(
            "\\b(?:each|every one|every email|all of them)\\b|לכל אחד|על כל אחד|לכל מייל|על כל מייל|לכל אחת|על כל אחת",
            FLAGS);
    private static final Pattern PRONOUN = Pattern.compile(
            "^(?:it|them|that|this|that one|this one|אותה|אותו|אותם|אותן|אות[הו] ל?)$|^(?:it|them)\\s+(?:to|on)\\b.*",
            FLAGS);
    private static final Pattern TO_IT = Pattern.compile(
            "\\s+(?:to|on|in)\\s+(?:it|them|that list|the list)\\s*$|\\s+(?:לה|לו|אליה|אליו|לרשימה)(?=\\s|$)", FLAGS);

    /**
     * A part that refers to the one before it ("…then add balloons to it", "…then move it to 5pm"):
     * it acts on what that step made or found.
     */
    private static PlanStep referring(PlanStep step, String text, PlanStep before, String language) {
        JsonNode earlier = before.constraints();
        boolean listBefore =
                before.capability().equals("database") && before.action().matches(".*_list|add_item");
        if (listBefore && ADD.matcher(text).find() && !step.action().equals("add_item")) {
            ObjectNode c = Json.object();
            String list = earlier.path("listName").asText("");
            if (!list.isEmpty()) {
                c.put("listName", list);
            }
            ArrayNode items = c.putArray("items");
            String said = TO_IT.matcher(text).replaceAll("");
            said = said.replaceFirst(
                    "(?iU)^(?:please\\s+)?(?:add|put)\\s+|^(?:בבקשה\\s+)?(?:תוסיף|תוסיפי|הוסף|הוסיפי|תכניס|תרשום|רשום)(?:\\s+את)?\\s+",
                    "");
            items(said, language).forEach(items::add);
            return new PlanStep(step.id(), "database", "add_item", c, step.changes(), step.dependsOn());
        }
        if (before.capability().equals("gmail")
                && before.action().equals("search_emails")
                && step.action().equals("create_task")
                && EACH.matcher(text).find()) {
            // "…then make a task about each": one task per email found ([*] over the search's result).
            ObjectNode c = step.constraints().deepCopy();
            c.put(
                    "text",
                    (language.equals("he") ? "לטפל במייל: $" : "Follow up: $") + before.id() + ".emails[*].subject");
            return new PlanStep(step.id(), step.capability(), step.action(), c, step.changes(), step.dependsOn());
        }
        String field = step.capability().equals("calendar") ? "summary" : "query";
        String said = step.constraints().path(field).asText(null);
        if (said != null && PRONOUN.matcher(said.trim()).matches()) {
            String named = earlier.path("summary")
                    .asText(earlier.path("query").asText(earlier.path("text").asText("")));
            if (!named.isEmpty()) {
                ObjectNode c = step.constraints().deepCopy();
                c.put(field, named);
                return new PlanStep(step.id(), step.capability(), step.action(), c, step.changes(), step.dependsOn());
            }
        }
        return step;
    }

    private PlanStep step(String id, String text, Context context, List<String> dependsOn) {
        String language = context.language();
        List<TimeExpression> times =
                time.find(text, context.now(), language.equals("he") ? Language.HEBREW : Language.ENGLISH);
        Optional<TimeExpression> when = chosen(times).map(t -> daytime(t, context.now()));
        String rest = when.map(t -> (text.substring(0, t.span().start()) + " "
                                + text.substring(t.span().end()))
                        .trim())
                .orElse(text);
        ObjectNode constraints = Json.object();
        ObjectNode changes = Json.object();
        String capability;
        String action;
        if (BRAIN_FORGET.matcher(text).find()) {
            capability = "second-brain";
            action = "delete_memory";
            constraints.put(
                    "query",
                    memoryQuery(
                            BRAIN_FORGET.matcher(text).replaceFirst("").replaceFirst("(?iU)^\\s*(?:that\\s+|ש)", "")));
        } else if (BRAIN_UPDATE.matcher(text).find()) {
            capability = "second-brain";
            action = "update_memory";
            Matcher update = BRAIN_UPDATE.matcher(text);
            update.find();
            constraints.put("query", TaskCleanup.trim(either(update, "what", "mah")));
            constraints.put("content", TaskCleanup.trim(either(update, "to", "le")));
        } else if (BRAIN_SUMMARY.matcher(text).find()) {
            capability = "second-brain";
            action = "summarize_project";
            String about = memoryQuery(text);
            if (!about.equals(TaskCleanup.trim(text.replaceAll("[?]+$", "")))) {
                constraints.put("query", about);
            }
        } else if (HOW_TO.matcher(text).find()
                || META.matcher(text).find()
                        && !TASK.matcher(text).find()
                        && !LIST.matcher(text).find()) {
            capability = "meta";
            action = "help";
            constraints.put("message", text);
        } else if (isAboutLists(text)) {
            capability = "database";
            action = listAction(text, rest, constraints, language);
        } else if (EMAIL.matcher(text).find() && !REMIND_ME.matcher(text).find()) {
            capability = "gmail";
            action = emailAction(text, rest, when, constraints, language);
        } else if (BRAIN_SEARCH.matcher(text).find()) {
            capability = "second-brain";
            action = "search_memory";
            String about = memoryQuery(text);
            if (!about.equals(TaskCleanup.trim(text.replaceAll("[?]+$", "")))) {
                // "what did I say about?" names nothing: the resolver gives the latest memories.
                constraints.put("query", about);
            }
        } else if (BRAIN_STORE.matcher(text).find() && !TASK.matcher(text).find()) {
            capability = "second-brain";
            action = "store_thought";
            constraints.put("content", thought(text));
        } else if (TASK.matcher(text).find()) {
            capability = "database";
            action = taskAction(text, rest, when, constraints, context);
        } else if (CALENDAR.matcher(text).find()
                || (when.isPresent() && QUERY.matcher(text).find())) {
            capability = "calendar";
            action = calendarAction(text, rest, when, constraints, changes, context);
        } else if (GREETING.matcher(text).matches() || when.isEmpty()) {
            if (COMPLETE.matcher(text).find() && !GREETING.matcher(text).matches()) {
                capability = "database";
                action = "complete_task";
                constraints.put("query", taskText(rest, language));
            } else {
                capability = "general";
                action = "respond";
                constraints.put("message", text);
            }
        } else {
            capability = "calendar";
            action = calendarAction(text, rest, when, constraints, changes, context);
        }
        return new PlanStep(id, capability, action, constraints, changes, dependsOn);
    }

    /** A clock hour said alone: "at 3", "ב-3", "3:30" — no am/pm, no part of the day, no leading zero. */
    private static final Pattern BARE_HOUR = Pattern.compile("^(?:at\\s+|@\\s*|ב-?\\s*)?[1-6](?::[0-5]\\d)?$", FLAGS);

    /**
     * Memo's reading of an hour said alone: weft-time takes the next such hour ("at 3" said at 16:00
     * is 03:00), but nobody asks an assistant for 3 a.m. without saying so, so an hour from 1 to 6 said
     * alone that falls in the small hours is read in the afternoon (15:00 the same day).
     */
    private static TimeExpression daytime(TimeExpression t, ZonedDateTime now) {
        if (t instanceof TimeExpression.Instant at
                && at.value().getHour() >= 1
                && at.value().getHour() <= 6
                && BARE_HOUR.matcher(at.text().trim()).matches()) {
            ZonedDateTime afternoon = at.value().plusHours(12);
            if (afternoon.minusDays(1).isAfter(now)) {
                afternoon = afternoon.minusDays(1);
            }
            return new TimeExpression.Instant(at.text(), at.span(), afternoon, at.grain());
        }
        return t;
    }

    /**
     * The time a part is about: its first expression, passing over a lone word ("lunch", "weekly")
     * when the part has a fuller one ("Wednesday at 1pm", "every Tuesday at 10").
     */
    private static Optional<TimeExpression> chosen(List<TimeExpression> times) {
        if (times.isEmpty()) {
            return Optional.empty();
        }
        for (TimeExpression t : times) {
            String said = t.text().trim();
            if (said.contains(" ") || said.contains("-") || times.size() == 1) {
                return Optional.of(t);
            }
        }
        return Optional.of(times.get(0));
    }

    /** Whether a part is about a list: it says list/רשימה or note/פתק, not only "list my tasks". */
    private static boolean isAboutLists(String text) {
        if (BRAIN_STORE.matcher(text).find()) {
            return false;
        }
        String rest = text.replaceFirst(
                "(?iU)^(?:please\\s+)?list\\s+(?=(?:my|all|the)?\\s*(?:tasks|reminders|to-?dos|meetings|events|e-?mails)\\b)",
                "");
        return LIST.matcher(rest).find();
    }

    // ---- email

    private static final Pattern EMAIL_ADDRESS =
            Pattern.compile("[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)+");
    private static final Pattern SEND = Pattern.compile(
            "^(?:please\\s+)?(?:send|write|email|mail)\\b(?!\\s+me\\b)|^(?:בבקשה\\s+)?(?:תשלח|שלח|תשלחי|תכתוב|כתוב)(?!\\s+לי\\b)",
            FLAGS);
    private static final Pattern DRAFT = Pattern.compile("\\b(?:draft|compose)\\b|טיוטה|תנסח|נסח", FLAGS);
    private static final Pattern REPLY =
            Pattern.compile("^(?:please\\s+)?(?:reply|respond|answer)\\b|^(?:תענה|ענה|תשיב|השב)", FLAGS);
    private static final Pattern REPLY_TO = Pattern.compile(
            "^(?:please\\s+)?(?:reply|respond)\\s+to\\s+(?!(?:the|that|this|her|his|their|my)\\b)(?<en>[\\p{L}.@+'-]+?)(?:'s)?(?=[\\s:,]|$)"
                    + "|^(?:בבקשה\\s+)?(?:תענה|תעני|תשיב|תשיבי|ענה|השב)\\s+ל(?:-)?(?!מייל)(?<he>[\\p{IsHebrew}][\\p{IsHebrew}'\"-]+)",
            FLAGS);
    private static final Pattern FORWARD = Pattern.compile("^(?:please\\s+)?forward\\b|^(?:תעביר|העבר|תעבירי)", FLAGS);
    private static final Pattern ARCHIVE = Pattern.compile("\\barchive\\b|ארכיון|תעביר לארכיון|תארכב", FLAGS);
    private static final Pattern READ = Pattern.compile(
            "^(?:please\\s+)?(?:read|open|show me the)\\b(?!.*\\be-?mails\\b)|^(?:תקרא|קרא|תפתח|פתח|תקריא)", FLAGS);
    private static final Pattern MARK_READ = Pattern.compile("\\bmark\\b.*\\bread\\b|סמן .*כנקרא|תסמן .*כנקרא", FLAGS);
    private static final Pattern STAR = Pattern.compile("\\bstar\\b|כוכב", FLAGS);
    private static final Pattern UNREAD = Pattern.compile("\\b(?:unread|new)\\b|שלא נקרא|שלא קראתי|חדשים|חדש", FLAGS);
    private static final Pattern FROM = Pattern.compile(
            "\\bfrom\\s+(?!today|yesterday|tomorrow|this|last|earlier)(?<en>(?:the\\s+|my\\s+)?[\\p{L}\\p{N}.@+'-]+)"
                    + "|(?<en2>\\b[\\p{L}][\\p{L}'-]*)'s\\s+(?:last\\s+|latest\\s+)?e-?mail"
                    + "|(?:ה)?מייל\\s+של\\s+(?<he2>[\\p{IsHebrew}][\\p{IsHebrew}'\"-]+)"
                    + "|(?:^|\\s)מ(?:-)?(?<he>(?!ה?יומן|ה?רשימ|יילים|ייל(?:\\s|$)|חר|חרתיים|אתמול|ה?בוקר|ה?יום|ה?שבוע|ה?חודש|עכשיו|שהו)[\\p{IsHebrew}][\\p{IsHebrew}'\"-]+)(?=\\s|$|\\?)",
            FLAGS);
    private static final Pattern ABOUT = Pattern.compile(
            "\\b(?:about|regarding|re:|subject)\\s+(?<en>.+?)\\s*(?:\\?|$|:|\\bfrom\\b|\\bto\\s+\\S+@|\\bsaying\\b|\\bthat says\\b)"
                    + "|\\b(?:search|look)\\s+(?:in\\s+)?(?:my\\s+)?(?:inbox|e-?mails?|mail)\\s+for\\s+(?<en2>.+?)\\s*(?:\\?|$)"
                    + "|(?:על|בנושא)\\s+(?<he>.+?)\\s*(?:\\?|$|:|\\s+ל-?\\S+@|\\s+ותכתוב|\\s+ותגיד|\\s+שאומר)",
            FLAGS);
    private static final Pattern LATEST =
            Pattern.compile("\\b(?:latest|newest|last|most recent)\\b|האחרון|האחרונה|החדש ביותר", FLAGS);
    /** "מייל ל-dana@example.com שאני מאחר": what follows the recipient's address after ש is the body. */
    private static final Pattern HEBREW_THAT =
            Pattern.compile("ל-?[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+\\s+ש(?<he>.+)$", FLAGS);

    private static final Pattern TO = Pattern.compile(
            "\\bto\\s+(?<en>[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+|[\\p{Lu}][\\p{L}'-]+)|(?:^|\\s)ל(?:-)?(?<he>[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+|[\\p{IsHebrew}][\\p{IsHebrew}'-]+)",
            FLAGS);
    private static final Pattern BODY = Pattern.compile(
            "(?:\\bsaying|\\bthat says|\\bwith the text|:|^(?:please\\s+)?(?:e-?mail|mail|tell)\\s+[\\p{L}.@+'-]+\\s+that)\\s*(?<en>.+)$"
                    + "|(?:שאומר(?:\\s+ש)?|ותגיד(?:\\s+ש)?|ותכתוב(?:\\s+ש)?|:)\\s*(?<he>.+)$",
            FLAGS);

    private static String emailAction(
            String text, String rest, Optional<TimeExpression> when, ObjectNode constraints, String language) {
        boolean sending = (SEND.matcher(text).find() || DRAFT.matcher(text).find())
                && !REPLY.matcher(text).find()
                && !FORWARD.matcher(text).find();
        Matcher saying = BODY.matcher(text);
        Matcher that = HEBREW_THAT.matcher(text);
        String body = saying.find()
                ? either(saying, "en", "he").trim()
                : that.find() ? that.group("he").trim() : "";
        if (!sending) {
            // A time inside what the email says ("reply: yes, Sunday at 10") is no window to search.
            when.filter(t -> body.isEmpty() || !body.contains(t.text().trim()))
                    .ifPresent(t -> window(t, constraints, "timeMin", "timeMax"));
            Matcher from = FROM.matcher(text);
            if (from.find()) {
                String who = from.group("en") != null
                        ? from.group("en")
                        : from.group("en2") != null ? from.group("en2") : either(from, "he", "he2");
                constraints.put("from", who.trim());
            }
        }
        Matcher about = ABOUT.matcher(text);
        if (about.find()) {
            String subject = about.group("en2") != null ? about.group("en2") : either(about, "en", "he");
            constraints.put("subject", TaskCleanup.trim(subject));
        }
        String said = body;
        if (REPLY.matcher(text).find()) {
            Matcher to = REPLY_TO.matcher(text);
            if (!constraints.has("from") && to.find()) {
                constraints.put("from", either(to, "en", "he"));
            }
            if (!said.isEmpty()) {
                constraints.put("body", said);
            }
            return "reply_email";
        }
        if (FORWARD.matcher(text).find() && !ARCHIVE.matcher(text).find()) {
            recipients(text, constraints);
            return "forward_email";
        }
        if (ARCHIVE.matcher(text).find()) {
            return "archive_email";
        }
        if (DELETE.matcher(text).find()) {
            return "delete_email";
        }
        if (MARK_READ.matcher(text).find()) {
            return "mark_read";
        }
        if (STAR.matcher(text).find()) {
            return "star_email";
        }
        if (SEND.matcher(text).find() || DRAFT.matcher(text).find()) {
            recipients(text, constraints);
            if (!said.isEmpty()) {
                constraints.put("body", said);
            }
            return DRAFT.matcher(text).find() ? "compose_email" : "send_email";
        }
        if (READ.matcher(text).find()) {
            if (LATEST.matcher(text).find()) {
                constraints.put("latest", true);
            }
            return "read_email";
        }
        if (UNREAD.matcher(text).find()) {
            constraints.put("unread", true);
        }
        return "search_emails";
    }

    private static final Pattern NAMED_RECIPIENT = Pattern.compile(
            "^(?:please\\s+)?(?:e-?mail|mail|write to|tell)\\s+(?!an?\\b|the\\b|my\\b)([\\p{L}][\\p{L}'-]*)", FLAGS);

    private static void recipients(String text, ObjectNode constraints) {
        ArrayNode to = constraints.putArray("to");
        Matcher addresses = EMAIL_ADDRESS.matcher(text);
        while (addresses.find()) {
            to.add(addresses.group());
        }
        Matcher recipient = NAMED_RECIPIENT.matcher(text);
        if (to.isEmpty() && recipient.find()) {
            to.add(recipient.group(1));
        }
        if (to.isEmpty()) {
            Matcher named = TO.matcher(text.replaceFirst("(?iU)^.*?\\b(?:e-?mail|mail)\\b", ""));
            if (named.find()) {
                to.add(either(named, "en", "he"));
            }
        }
    }

    // ---- the second brain

    private static final Pattern BRAIN_SEARCH = Pattern.compile(
            "\\bwhat (?:did|have) i (?:say|said|write|written|note|noted|think|thought)\\b|\\bwhat do i (?:know|think) about\\b"
                    + "|\\b(?:search|look) (?:my )?(?:memories|notes|thoughts) (?:for|about)\\b|\\bdo you remember\\b"
                    + "|\\bwhat (?:were|are) my (?:ideas|thoughts|notes) (?:about|on)\\b"
                    + "|מה אמרתי|מה כתבתי|מה חשבתי|מה רשמתי|מה אני יודע על|אתה זוכר|את זוכרת|מה הרעיונות שלי|מה המחשבות שלי",
            FLAGS);
    private static final Pattern BRAIN_FORGET = Pattern.compile(
            "^(?:please\\s+)?(?:forget|(?:delete|remove|erase) (?:the |my )?(?:memory|memories|thought|idea|what i (?:said|told you))\\b)"
                    + "|^(?:תשכח|תשכחי|שכח|שכחי)\\b|^(?:תמחק|תמחקי|מחק|מחקי) (?:את )?(?:מה שאמרתי|הזיכרון|המחשבה|הרעיון)",
            FLAGS);
    private static final Pattern BRAIN_UPDATE = Pattern.compile(
            "^(?:please\\s+)?(?:update|change|correct) (?:what i (?:said|told you)|my (?:memory|thought|idea))"
                    + " (?:about|on) (?<what>.+?)(?:\\s+to\\s+|:\\s*)(?<to>.+)$"
                    + "|^(?:תעדכן|תעדכני|עדכן|עדכני|תשנה|תשני) (?:את )?(?:מה שאמרתי|הזיכרון|המחשבה|הרעיון) (?:על|לגבי) (?<mah>.+?)(?:\\s+ל-?|:\\s*)(?<le>.+)$",
            FLAGS);
    private static final Pattern BRAIN_SUMMARY = Pattern.compile(
            "^(?:please\\s+)?(?:summari[sz]e|sum up|give me a summary of) (?:what i (?:said|told you|wrote)|my (?:memories|thoughts|ideas|notes))"
                    + "|^(?:תסכם|תסכמי|סכם|סכמי) (?:לי )?(?:את )?(?:מה שאמרתי|מה שסיפרתי|הזיכרונות|המחשבות|הרעיונות|מה שאני יודע)",
            FLAGS);
    private static final Pattern BRAIN_STORE = Pattern.compile(
            "^(?:(?:i think|i feel|i believe|i realized|i learned|my thoughts? on|remember that|note that|fyi"
                    + "|(?:please\\s+)?(?:store|save|keep|remember) (?:the thought |the idea )?that|in my opinion)\\b|idea:|thought:)"
                    + "|^(?:אני חושב|אני חושבת|אני מרגיש|אני מרגישה|אני מאמין|הבנתי ש|למדתי ש|רעיון:|מחשבה:|תזכור ש|תזכרי ש|שים לב ש"
                    + "|תשמור ש|תשמרי ש|שמור ש|לדעתי)",
            FLAGS);

    private static String memoryQuery(String text) {
        return TaskCleanup.trim(
                text.replaceAll("(?iU)^.*?\\b(?:about|regarding|on|of)\\s+|^.*?\\bfor\\s+|^.*?(?:על|בנושא)\\s+", "")
                        .replaceAll("[?]+$", ""));
    }

    private static String thought(String text) {
        return TaskCleanup.trim(text.replaceFirst(
                "(?iU)^(?:remember that|note that|fyi|idea:|thought:|(?:please\\s+)?(?:store|save|keep) (?:the thought |the idea )?that)\\s*"
                        + "|^(?:תזכור ש|תזכרי ש|שים לב ש|רעיון:|מחשבה:|תשמור ש|תשמרי ש|שמור ש)\\s*",
                ""));
    }

    // ---- tasks and reminders

    private String taskAction(
            String text, String rest, Optional<TimeExpression> when, ObjectNode constraints, Context context) {
        String language = context.language();
        boolean all = ALL.matcher(text).find() || PLURAL_TASKS.matcher(text).find();
        boolean remindMe = REMIND_ME.matcher(text).find();
        Matcher several = SEVERAL_TASKS.matcher(text);
        if (several.find() && !remindMe) {
            ArrayNode tasks = constraints.putArray("tasks");
            items(either(several, "items", "items2"), language)
                    .forEach(item -> tasks.addObject().put("text", item));
            return "create_tasks";
        }
        Matcher rename = RENAME.matcher(text);
        if (rename.find()) {
            constraints.put("query", TaskCleanup.trim(either(rename, "from", "from2")));
            constraints.put("text", TaskCleanup.trim(either(rename, "to", "to2")));
            return "update_task";
        }
        if (DELETE.matcher(text).find() && !remindMe) {
            if (all || taskText(rest, language).isEmpty()) {
                constraints.put("window", when.map(t -> windowName(t, context)).orElse("all"));
                typeOf(text).ifPresent(type -> constraints.put("type", type));
                return "delete_tasks";
            }
            constraints.put("query", taskText(rest, language));
            return "delete_task";
        }
        if (COMPLETE.matcher(text).find() && !remindMe) {
            if (all) {
                when.ifPresent(t -> constraints.put("window", windowName(t, context)));
                return "complete_tasks";
            }
            constraints.put("query", taskText(rest, language));
            return "complete_task";
        }
        if (QUERY.matcher(text).find() && !remindMe) {
            if (OVERDUE.matcher(text).find()) {
                constraints.put("window", "overdue");
            }
            when.ifPresent(t -> constraints.put("window", windowName(t, context)));
            typeOf(text).ifPresent(type -> constraints.put("type", type));
            return "find_task";
        }
        if (UPDATE.matcher(text).find() && when.isPresent() && !remindMe) {
            constraints.put("query", taskText(rest, language));
            dueOf(when.get(), context).ifPresent(d -> constraints.put("dueDate", d));
            return "update_task";
        }
        constraints.put("text", taskText(rest, language));
        boolean reminder = text.matches("(?iU).*\\b(?:remind|reminder)\\b.*")
                || text.contains("תזכיר")
                || text.contains("תזכורת")
                || text.contains("להזכיר");
        constraints.put("isReminder", reminder);
        when.ifPresent(t -> {
            if (t instanceof TimeExpression.Recurrence recurrence) {
                constraints.set("reminderRecurrence", recurrence(recurrence));
            } else {
                dueOf(t, context).ifPresent(d -> constraints.put("dueDate", d));
                if (reminder) {
                    constraints.put("reminder", "0 minutes");
                }
            }
        });
        return "create_task";
    }

    private static final Pattern REMIND_ME = Pattern.compile(
            "^(?:please\\s+|can you\\s+|could you\\s+)*(?:remind me|set (?:a |an )?reminder|don'?t let me forget)\\b"
                    + "|^(?:בבקשה\\s+)?(?:תזכיר לי|תזכירי לי|הזכר לי|תקבע תזכורת|תזכורת\\s)",
            FLAGS);
    private static final Pattern PLURAL_TASKS = Pattern.compile(
            "\\b(?:my|the)\\s+(?:tasks|reminders|to-?dos)\\b|(?:^|\\s)(?:ה|את ה)(?:משימות|תזכורות)\\b", FLAGS);
    private static final Pattern OVERDUE =
            Pattern.compile("\\b(?:overdue|late|past due|missed)\\b|באיחור|שעבר|שפספסתי|פספסתי", FLAGS);
    private static final Pattern SEVERAL_TASKS = Pattern.compile(
            "^(?:please\\s+)?(?:add|create)\\s+(?:\\p{L}+\\s+)?(?:tasks|to-?dos|reminders)\\s*:\\s*(?<items>.+)$"
                    + "|^(?:בבקשה\\s+)?(?:תוסיף|הוסף|תוסיפי|צור|תיצור)\\s+(?:\\p{L}+\\s+)?(?:משימות|מטלות)\\s*:\\s*(?<items2>.+)$",
            FLAGS);
    private static final Pattern RENAME = Pattern.compile(
            "^(?:please\\s+)?rename\\s+(?:the\\s+|my\\s+)?(?:task|reminder|to-?do)?\\s*(?<from>.+?)\\s+to\\s+(?<to>.+)$"
                    + "|^(?:תשנה|שנה)\\s+את\\s+(?:ה)?שם\\s+(?:של\\s+)?(?:ה)?(?:משימה|תזכורת)\\s+(?<from2>.+?)\\s+ל(?:-)?(?<to2>\\S.*)$",
            FLAGS);

    /** The group of the two that matched: a pattern's English and Hebrew alternatives. */
    private static String either(Matcher m, String english, String hebrew) {
        return m.group(english) != null ? m.group(english) : m.group(hebrew);
    }

    private static Optional<String> typeOf(String text) {
        if (text.matches("(?iU).*\\b(?:recurring|repeating)\\b.*") || text.contains("חוזר")) {
            return Optional.of("recurring");
        }
        if (text.matches("(?iU).*\\breminders?\\b.*") || text.contains("תזכורות")) {
            return Optional.of("reminder");
        }
        return Optional.empty();
    }

    /** Seed 002's {@code reminderRecurrence}: nudges for minutes and hours, else daily, weekly, monthly. */
    private static ObjectNode recurrence(TimeExpression.Recurrence r) {
        ObjectNode out = Json.object();
        switch (r.frequency()) {
            case MINUTELY, HOURLY -> {
                out.put("type", "nudge");
                out.put(
                        "interval",
                        r.interval()
                                + (r.frequency() == TimeExpression.Recurrence.Frequency.MINUTELY
                                        ? " minutes"
                                        : " hours"));
            }
            case DAILY -> out.put("type", "daily");
            case WEEKLY -> {
                out.put("type", "weekly");
                ArrayNode days = out.putArray("days");
                r.days().forEach(d -> days.add(d == DayOfWeek.SUNDAY ? 0 : d.getValue()));
            }
            case MONTHLY -> {
                out.put("type", "monthly");
                r.dayOfMonth().ifPresent(d -> out.put("dayOfMonth", d));
            }
            case YEARLY -> out.put("type", "monthly");
        }
        if (!r.times().isEmpty()) {
            out.put("time", r.times().get(0).format(DateTimeFormatter.ofPattern("HH:mm")));
        } else if (r.frequency() != TimeExpression.Recurrence.Frequency.MINUTELY
                && r.frequency() != TimeExpression.Recurrence.Frequency.HOURLY) {
            // A day said without a time ("every month on the 1st") reminds in the morning, not at midnight.
            java.time.LocalTime at = r.first().toLocalTime();
            out.put(
                    "time",
                    (at.equals(java.time.LocalTime.MIDNIGHT) ? java.time.LocalTime.of(9, 0) : at)
                            .format(DateTimeFormatter.ofPattern("HH:mm")));
        }
        if (r.interval() > 1 && !out.has("interval")) {
            out.put("interval", String.valueOf(r.interval()));
        }
        r.until().ifPresent(u -> out.put("until", u.format(ISO)));
        return out;
    }

    /** The due date a time names: an instant as it is, a day at the start of it (an all-day date). */
    private static Optional<String> dueOf(TimeExpression t, Context context) {
        return switch (t) {
            case TimeExpression.Instant i -> {
                if (i.grain().compareTo(Grain.DAY) >= 0) {
                    yield Optional.of(i.value().toLocalDate().toString());
                }
                // Seed 002's forward-looking rule: a time of day already past today is tomorrow's.
                ZonedDateTime at = i.value().truncatedTo(ChronoUnit.MINUTES);
                if (at.isBefore(context.now().minusMinutes(1))
                        && at.toLocalDate().equals(context.now().toLocalDate())) {
                    at = at.plusDays(1);
                }
                yield Optional.of(at.format(ISO));
            }
            case TimeExpression.Interval i ->
                Optional.of(i.from().truncatedTo(ChronoUnit.MINUTES).format(ISO));
            case TimeExpression.Recurrence r -> Optional.of(r.first().format(ISO));
        };
    }

    /** A task filter's window for a time: today, tomorrow, this_week, or upcoming. */
    private static String windowName(TimeExpression t, Context context) {
        ZonedDateTime from = switch (t) {
            case TimeExpression.Instant i -> i.value();
            case TimeExpression.Interval i -> i.from();
            case TimeExpression.Recurrence r -> r.first();
        };
        long days = ChronoUnit.DAYS.between(context.now().toLocalDate(), from.toLocalDate());
        if (t instanceof TimeExpression.Instant i && i.grain().compareTo(Grain.WEEK) >= 0
                || t instanceof TimeExpression.Interval) {
            return "this_week";
        }
        return days == 0 ? "today" : days == 1 ? "tomorrow" : days < 0 ? "overdue" : "upcoming";
    }

    private static final Pattern EN_TASK_LEAD = Pattern.compile(
            "^(?:please\\s+|can you\\s+|could you\\s+)*(?:remind me(?:\\s+(?:to|that|about|of))?|set (?:a |an )?reminder"
                    + "(?:\\s+(?:to|for|about))?|add (?:a |an |the )?(?:new )?(?:task|reminder|to-?do)(?:\\s+(?:to|for))?"
                    + "|create (?:a |an )?(?:new )?(?:task|reminder|to-?do)(?:\\s+(?:to|for))?|new (?:task|reminder)"
                    + "|(?:delete|remove|cancel) (?:the |my )?(?:task|reminder|to-?do)s?(?:\\s+(?:to|about|for))?"
                    + "|(?:mark|complete)(?: the| my)?(?: task| reminder)?|i (?:finished|did|completed)|done with"
                    + "|(?:move|reschedule|postpone|change|update|push) (?:the |my )?(?:task|reminder)?(?:\\s+(?:to|about|for))?"
                    + "|(?:clear|erase) (?:the |my |all )?(?:tasks|reminders|to-?dos)"
                    + "|i need to|don'?t forget to|task:)\\s*",
            FLAGS);
    private static final Pattern HE_TASK_LEAD = Pattern.compile(
            "^(?:בבקשה\\s+)?(?:תזכיר לי|תזכירי לי|הזכר לי|תזכורת|תוסיף משימה|הוסף משימה|תוסיפי משימה|צור משימה|תצור משימה"
                    + "|משימה חדשה|תוסיף תזכורת|צור תזכורת|תקבע תזכורת|(?:תמחק|מחק|תמחקי|בטל|תבטל) את (?:ה)?(?:משימה|תזכורת)(?:\\s+(?:על|של))?"
                    + "|(?:תמחק|מחק|תמחקי|בטל|תבטל) (?:ה)?(?:משימה|תזכורת)|סיימתי(?: את)?|עשיתי(?: את)?|סמן(?: את)?|תסמן(?: את)?"
                    + "|(?:תזיז|הזז|תדחה|דחה|תעדכן|עדכן|תשנה|שנה|תעביר|העבר) את (?:ה)?(?:משימה|תזכורת)|אני צריך|אני צריכה|אל תשכח)\\s*[:\\-]?\\s*",
            FLAGS);

    /** A task's text: the message without its request words, its time, and dangling words at its ends. */
    static String taskText(String rest, String language) {
        String text = rest.trim();
        Pattern lead = language.equals("he") ? HE_TASK_LEAD : EN_TASK_LEAD;
        Matcher m = lead.matcher(text);
        if (m.find()) {
            text = text.substring(m.end());
        }
        if (language.equals("he")) {
            text = text.replaceAll("(?U)^(?:ש|ל)(?=\\s)", "").replaceAll("(?U)\\s+כ(?:בוצע|גמור)\\s*$", "");
        } else {
            text = text.replaceAll("(?iU)\\s+(?:as )?(?:done|complete|completed|finished)\\s*$", "");
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

    // ---- lists

    private static final Pattern EN_LIST_NAMED = Pattern.compile(
            "(?:(?:my|the|a|an|new)\\s+)*(?<name>[\\p{L}\\p{N}' -]+?)\\s+list\\b|\\blist\\s+(?:called|named)\\s+(?<named>[\\p{L}\\p{N}' -]+)",
            FLAGS);
    private static final Pattern HE_LIST_NAMED = Pattern.compile(
            "רשימת\\s+(?:ה)?(?<name>[\\p{L}\\p{N}'\"-]+(?:\\s+(?!עם|של|ל|ב)[\\p{L}\\p{N}'\"-]+)?)|רשימה\\s+(?:בשם|שנקראת)\\s+(?<named>[\\p{L}\\p{N}'\" -]+)",
            FLAGS);

    private static final Pattern UNCHECK = Pattern.compile("\\b(?:uncheck|untick)\\b|הסימון", FLAGS);

    private static String listAction(String text, String rest, ObjectNode constraints, String language) {
        Optional<String> name = listName(text, language);
        name.ifPresent(n -> constraints.put("listName", n));
        if (UNCHECK.matcher(text).find()) {
            List<String> items = itemsBefore(text, language);
            constraints.put("item", items.isEmpty() ? "" : items.get(0));
            return "toggle_item";
        }
        if (DELETE.matcher(text).find() && !ADD.matcher(text).find()) {
            List<String> items = itemsBefore(text, language);
            // An item comes off a list ("delete milk from the list", "תמחק את החלב מרשימת הקניות");
            // otherwise the list itself goes.
            boolean fromList = text.matches("(?iU).*\\b(?:from|off)\\s+(?:the |my |a )?[\\p{L}\\p{N}' -]*list\\b.*")
                    || text.matches("(?U).*\\sמ(?:ה)?רשימ.*");
            if (fromList && !items.isEmpty() && !items.get(0).isBlank()) {
                constraints.put("item", items.get(0));
                return "delete_item";
            }
            return "delete_list";
        }
        if (ADD.matcher(text).find()) {
            ArrayNode items = constraints.putArray("items");
            itemsBefore(text, language).forEach(items::add);
            return "add_item";
        }
        if (TOGGLE.matcher(text).find()) {
            List<String> items = itemsBefore(text, language);
            constraints.put("item", items.isEmpty() ? "" : items.get(0));
            return "toggle_item";
        }
        if (text.matches("(?iU)^(?:please\\s+)?(?:create|make|start|new|open)\\b.*")
                || text.matches("(?U)^(?:בבקשה\\s+)?(?:צור|תצור|תיצור|צרי|תפתח|פתח|רשימה חדשה).*")) {
            ArrayNode items = constraints.putArray("items");
            itemsAfter(text, language).forEach(items::add);
            constraints.put("isChecklist", !items.isEmpty() || !text.matches("(?iU).*(?:\\bnotes?\\b|פתק).*"));
            return "create_list";
        }
        return "find_list";
    }

    private static final Pattern EN_LIST_CALLED = Pattern.compile(
            "\\b(?:list|note)\\s+(?:called|named|titled)\\s+(?<name>[\\p{L}\\p{N}' -]+?)\\s*(?:\\bwith\\b|:|$)"
                    + "|\\b(?:list|note)\\s+(?:for|of)\\s+(?:the\\s+|my\\s+|a\\s+)?(?<purpose>[\\p{L}\\p{N}' -]+?)\\s*(?:\\bwith\\b|:|$)",
            FLAGS);
    private static final Pattern EN_BEFORE_LIST = Pattern.compile("^(?<before>.*?)\\s*\\b(?:list|note)\\b", FLAGS);
    private static final Pattern HE_LIST_FOR = Pattern.compile(
            "(?:רשימה|פתק)\\s+(?:בשם|שנקרא|שנקראת|של|עבור)\\s+(?:ה)?(?<name>[\\p{L}\\p{N}'\" -]+?)\\s*(?:\\sעם\\s|:|$)"
                    + "|רשימה\\s+ל(?:ה)?(?<purpose>\\p{L}[\\p{L}\\p{N}'\"-]*(?:\\s+(?!עם)\\p{L}[\\p{L}\\p{N}'\"-]*)?)\\s*(?:\\sעם\\s|:|$)",
            FLAGS);

    private static final Pattern DETERMINER = Pattern.compile("\\b(?:the|my|a|an|our|your|new)\\s+", FLAGS);
    private static final Pattern LIST_VERB_OR_PREPOSITION =
            Pattern.compile("\\b(?:to|from|on|in|of|off|create|make|start|show|me|open)\\s+", FLAGS);
    private static final Pattern HE_ITEMS_AFTER = Pattern.compile("(?:עם|:)\\s*(.+)$", FLAGS);
    private static final Pattern EN_ITEMS_AFTER = Pattern.compile("(?:with|of|containing|:)\\s+(.+)$", FLAGS);

    static Optional<String> listName(String text, String language) {
        if (language.equals("en")) {
            Matcher before = EN_BEFORE_LIST.matcher(text);
            if (before.find()) {
                String words = before.group("before").trim();
                Matcher det = DETERMINER.matcher(words);
                int from = -1;
                while (det.find()) {
                    from = det.end();
                }
                if (from < 0) {
                    Matcher prep = LIST_VERB_OR_PREPOSITION.matcher(words);
                    while (prep.find()) {
                        from = prep.end();
                    }
                }
                String name = (from < 0 ? words : words.substring(from)).trim();
                if (name.equalsIgnoreCase("to-do") || name.equalsIgnoreCase("todo")) {
                    return Optional.of("to-do");
                }
                if (!name.isEmpty()
                        && !name.matches("(?iU)(?:a|an|the|my|new|all|a new|create|make|show|add|delete|remove)")) {
                    return Optional.of(name.toLowerCase(Locale.ROOT));
                }
            }
            Matcher called = EN_LIST_CALLED.matcher(text);
            if (called.find()) {
                return Optional.of(either(called, "name", "purpose").trim().toLowerCase(Locale.ROOT));
            }
            return Optional.empty();
        }
        Matcher named = HE_LIST_NAMED.matcher(text);
        while (named.find()) {
            String name = named.group("named") != null ? named.group("named") : named.group("name");
            if (name != null && !name.isBlank()) {
                return Optional.of(name.trim());
            }
        }
        Matcher purpose = HE_LIST_FOR.matcher(text);
        if (purpose.find()) {
            return Optional.of(either(purpose, "name", "purpose").trim());
        }
        return Optional.empty();
    }

    /** Items named before the list: "add milk and eggs to the shopping list", "תוסיף חלב לרשימה". */
    private static List<String> itemsBefore(String text, String language) {
        String part;
        if (language.equals("he")) {
            part = text.replaceAll(
                            "(?U)^(?:בבקשה\\s+)?(?:(?:תוריד|הורד|תורידי) את הסימון\\s+מ(?:ה)?|(?:תוסיף|תוסיפי|הוסף|הוסיפי|תכניס|תרשום|רשום|תמחק|מחק|תמחקי|תוריד|הורד|סמן|תסמן|תסמני)(?:\\s+את)?\\s+)",
                            "")
                    .replaceAll("(?U)(?:^|\\s+)(?:ל|מ|ב)?(?:ה)?רשימ.*$", "");
        } else {
            part = text.replaceAll(
                            "(?iU)^(?:please\\s+)?(?:add|put|delete|remove|tick|check off|cross off|mark|uncheck|untick)\\s+",
                            "")
                    .replaceAll(
                            "(?iU)(?:^|\\s+)(?:to|from|on|in|off)\\s+(?:the |my |a )?[\\p{L}\\p{N}' -]*list\\b.*$", "")
                    .replaceAll("(?iU)\\s+(?:as )?(?:done|bought|checked)\\s*$", "");
        }
        return items(part, language);
    }

    /** Items named after the list: "create a shopping list with milk, eggs and bread", "...עם חלב וביצים". */
    private static List<String> itemsAfter(String text, String language) {
        Matcher m = (language.equals("he") ? HE_ITEMS_AFTER : EN_ITEMS_AFTER).matcher(text);
        return m.find() ? items(m.group(1), language) : List.of();
    }

    static List<String> items(String text, String language) {
        List<String> items = new ArrayList<>();
        String[] pieces = language.equals("he")
                ? text.split("\\s*,\\s*|\\s+ו(?=[\\p{L}])(?=\\S+\\s*$)")
                : text.split("(?iU)\\s*,\\s*(?:and\\s+)?|\\s+and\\s+");
        if (language.equals("he") && pieces.length > 1) {
            // "חלב, ביצים ושאיבת אבק": the last comma's piece holds the last two items, joined by ו.
            String last = pieces[pieces.length - 1];
            int and = last.lastIndexOf(" ו");
            if (and > 0 && and + 2 < last.length()) {
                List<String> joined = new ArrayList<>(List.of(pieces).subList(0, pieces.length - 1));
                joined.add(last.substring(0, and));
                joined.add(last.substring(and + 2));
                pieces = joined.toArray(String[]::new);
            }
        }
        for (String piece : pieces) {
            String item = piece.trim().replaceAll("^[.!?\"'“”]+|[.!?\"'“”]+$", "");
            if (language.equals("he") && items.size() > 0 && item.startsWith("ו") && item.length() > 2) {
                item = item.substring(1);
            }
            if (!item.isEmpty()) {
                items.add(item);
            }
        }
        return items;
    }

    // ---- calendar

    /** A time said without a day: "4pm", "at 16:30", "noon", "ב-16:00". */
    private static final Pattern CLOCK_ONLY = Pattern.compile(
            "(?:at\\s+|to\\s+|@\\s*)?\\d{1,2}(?:[:.]\\d{2})?\\s*(?:am|pm|a\\.m\\.|p\\.m\\.|o'?clock)?"
                    + "|(?:at\\s+)?(?:noon|midday|midnight)"
                    + "|(?:ב|ל)?-?\\s*\\d{1,2}(?::\\d{2})?(?:\\s+(?:בבוקר|בערב|בצהריים|אחה\"צ|בלילה))?|(?:ב|ל)?צהריים",
            FLAGS);

    private static final Pattern FIND_EVENT = Pattern.compile(
            "^(?:please\\s+)?(?:find|look up|search for|search|when is)\\b|^(?:תמצא|מצא|תחפש|חפש|מתי)\\s", FLAGS);
    private static final Pattern FREE =
            Pattern.compile("\\b(?:am i free|free at|available|busy)\\b|פנוי|פנויה|עסוק|עסוקה", FLAGS);
    private static final Pattern EVENTS_PLURAL =
            Pattern.compile("\\b(?:meetings|events|appointments)\\b|פגישות|אירועים", FLAGS);

    private static String calendarAction(
            String text,
            String rest,
            Optional<TimeExpression> when,
            ObjectNode constraints,
            ObjectNode changes,
            Context context) {
        String language = context.language();
        if (DELETE.matcher(text).find()) {
            if (when.isPresent()
                    && (ALL.matcher(text).find() || EVENTS_PLURAL.matcher(text).find())) {
                window(when.get(), constraints, "timeMin", "timeMax");
                return "delete_events";
            }
            constraints.put("summary", summary(rest, language));
            when.ifPresent(t -> window(t, constraints, "timeMin", "timeMax"));
            return "delete_event";
        }
        if (UPDATE.matcher(text).find() && when.isPresent()) {
            constraints.put("summary", summary(rest, language));
            if (when.get() instanceof TimeExpression.Instant i
                    && CLOCK_ONLY.matcher(i.text().trim()).matches()) {
                // "move it to 4pm" keeps the event's day: only its time of day changes.
                changes.put("startTime", i.value().toLocalTime().format(DateTimeFormatter.ofPattern("HH:mm")));
            } else {
                eventTime(when.get(), changes, context);
            }
            return "update_event";
        }
        if (FIND_EVENT.matcher(text).find() && when.isEmpty()) {
            constraints.put("summary", summary(rest, language));
            return "find_event";
        }
        if (FREE.matcher(text).find() && when.isPresent()) {
            window(when.get(), constraints, "timeMin", "timeMax");
            return "check_conflicts";
        }
        if (QUERY.matcher(text).find() || when.isEmpty()) {
            when.ifPresent(t -> window(t, constraints, "timeMin", "timeMax"));
            return "list_events";
        }
        constraints.put("summary", summary(rest, language));
        if (when.get() instanceof TimeExpression.Recurrence r) {
            constraints.put("start", r.first().format(ISO));
            constraints.put("rrule", r.toRrule());
            return "create_recurring";
        }
        eventTime(when.get(), constraints, context);
        return "create_event";
    }

    /** An event's time: an interval as it is, an hour from a time of day, a whole day for a day. */
    private static void eventTime(TimeExpression t, ObjectNode into, Context context) {
        switch (t) {
            case TimeExpression.Interval i -> {
                into.put("start", i.from().format(ISO));
                into.put("end", i.to().format(ISO));
            }
            case TimeExpression.Instant i -> {
                if (i.grain().compareTo(Grain.DAY) >= 0) {
                    into.put("start", i.value().toLocalDate().toString());
                    into.put("allDay", true);
                } else {
                    ZonedDateTime at = i.value();
                    if (at.isBefore(context.now().minusMinutes(1))
                            && at.toLocalDate().equals(context.now().toLocalDate())) {
                        at = at.plusDays(1);
                    }
                    into.put("start", at.format(ISO));
                    into.put("end", at.plus(Duration.ofHours(1)).format(ISO));
                }
            }
            case TimeExpression.Recurrence r -> {
                into.put("start", r.first().format(ISO));
                into.put("rrule", r.toRrule());
            }
        }
    }

    private static String summary(String rest, String language) {
        String text = rest.replaceAll(
                        "(?iU)^(?:please\\s+)?(?:schedule|add|create|set up|book|put|make|delete|remove|cancel|move|reschedule|postpone|push|change|update|find|look up|search for|search|when is)\\s+(?:an?\\s+|the\\s+|my\\s+)?(?:new\\s+)?(?:weekly\\s+|daily\\s+|monthly\\s+)?(?:event|appointment)?\\s*(?:called|named|for)?\\s*",
                        "")
                .replaceAll(
                        "(?U)^(?:בבקשה\\s+)?(?:קבע|תקבע|תקבעי|צור|תצור|הוסף|תוסיף|תכניס|מחק|תמחק|בטל|תבטל|תעביר|העבר|תזיז|הזז|תדחה|דחה|תמצא|מצא|תחפש|חפש)(?:\\s+לי)?(?:\\s+את)?\\s+(?:ה)?(?:אירוע\\s+)?",
                        "")
                .replaceAll("(?iU)\\s+(?:to|in|on|from)\\s+(?:my\\s+|the\\s+)?calendar\\b.*$", "")
                .replaceAll("(?U)(?:^|\\s+)(?:ל|ב|מ)(?:ה)?(?:יומן|לוח השנה)(?=\\s|$)", " ")
                .replaceAll("(?iU)\\s+(?:to|for)\\s*$", "")
                .replaceAll("(?U)\\s+(?:ל|ל-)\\s*$", "")
                .trim();
        String done = TaskCleanup.trim(text);
        return done.isEmpty() ? (language.equals("he") ? "אירוע" : "Event") : done;
    }

    /** The whole of the time a query names: a day from its start to its end, an interval as it is. */
    private static void window(TimeExpression t, ObjectNode constraints, String fromField, String toField) {
        ZonedDateTime from;
        ZonedDateTime to;
        switch (t) {
            case TimeExpression.Interval i -> {
                from = i.from();
                to = i.grain().compareTo(Grain.DAY) >= 0
                        ? i.to().plus(1, unit(i.grain())).minusSeconds(1)
                        : i.to();
            }
            case TimeExpression.Instant i -> {
                from = i.value();
                to = i.grain().compareTo(Grain.HOUR) >= 0
                        ? i.value().plus(1, unit(i.grain())).minusSeconds(1)
                        : i.value().plusHours(1);
            }
            case TimeExpression.Recurrence r -> {
                from = r.first();
                to = r.first().plusDays(1).minusSeconds(1);
            }
        }
        constraints.put(fromField, from.format(ISO));
        constraints.put(toField, to.format(ISO));
    }

    private static ChronoUnit unit(Grain grain) {
        return switch (grain) {
            case SECOND -> ChronoUnit.SECONDS;
            case MINUTE -> ChronoUnit.MINUTES;
            case HOUR -> ChronoUnit.HOURS;
            case DAY -> ChronoUnit.DAYS;
            case WEEK -> ChronoUnit.WEEKS;
            case MONTH -> ChronoUnit.MONTHS;
            case QUARTER -> ChronoUnit.MONTHS;
            case YEAR -> ChronoUnit.YEARS;
        };
    }

    /** Trimming what is left of a part once its request words are gone. */
    static final class TaskCleanup {
        private TaskCleanup() {}

        static String trim(String text) {
            return text.replaceAll("(?iU)\\s+(?:at|on|in|by|for|from|to)\\s*$", "")
                    .replaceAll("(?U)\\s+(?:ב|ב-|מ|עד|ל|ל-)\\s*$", "")
                    .replaceAll("\\s{2,}", " ")
                    .replaceAll("^[\\s,.:;!\\-\"']+|[\\s,.:;!?\\-\"']+$", "");
        }
    }
}
