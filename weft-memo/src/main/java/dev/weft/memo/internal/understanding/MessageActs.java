package dev.weft.memo.internal.understanding;

import dev.weft.plan.PlanStep;
import dev.weft.plan.RequestActs;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a message asks Memo to do, for the safety invariants ({@link dev.weft.plan.ChangeGuard}), in
 * English and Hebrew: whether it only asks to read, confirm or be told ("what reminders do I have", "is
 * my morning alarm on?", "confirm my alarm settings", "מה יש לי מחר?"), and whether its words ask for
 * the change a step would make (a delete needs a word that deletes). Rules over words, not the
 * classifier: a classifier that mistakes a question for a change must not be the one to check itself.
 * The language layer is to own these word lists; until then they live here. Thread-safe.
 */
public final class MessageActs implements RequestActs {
    /** Where a command may begin: the start of a sentence, or after a joiner or a politeness. */
    private static final String LEAD = "(?:^|[.?!;,:\\n]\\s*|\\b(?:and|then|also|so|please|pls|plz|now|just|and then"
            + "|(?:can|could|would|will) you(?: please)?|(?:can|could|shall|should) we|(?:can|could|may) i (?:get|have)|i (?:want|need) you to|i'?d like you to|go ahead and|make sure to"
            + "|וגם|ואז|וגם תעשה|בבקשה|אפשר|תוכל|תוכלי|אתה יכול|את יכולה|אני רוצה ש|אני צריך ש)\\s+)";

    /** English verbs that change what the user has, said as a command. */
    private static final String EN_CHANGE =
            "add|create|set(?:\\s+up)?|schedule|book|put|make|plan|arrange|delete|remove"
                    + "|cancel|clear|erase|drop|scrap|wipe|trash|get rid|move|reschedule|push|postpone|delay|shift|bring"
                    + "|change|update|rename|edit|mark|complete|finish|check off|tick|turn|switch|enable|disable|activate"
                    + "|deactivate|send|shoot|draft|compose|ping|give me a heads up|give me \\w+ more minutes|reply|respond to|forward|email|archive|star|unstar|forget|save|note|jot|write"
                    + "|remember|store|snooze|block|invite|pay|order|buy|call it|wake me|remind me (?!when\\b(?!.*\\bto\\b))(?!(?:what|where"
                    + "|who|which|if|whether|how)\\b)";

    /** Hebrew verbs that change what the user has, as commands (imperative or future, any person). */
    private static final String HE_CHANGE = "ת?וסיפ[יו]?|הוסף|ת?קבע[יו]?|קבע|תיצור|צור|תמחק[יו]?|מחק|תבטל[יו]?|בטל"
            + "|תסיר[יו]?|הסר|תנקה|נקה|תוריד[יו]?|הורד|תזיז[יו]?|הזז|תשנה|שנה|תעדכן[יו]?|עדכן|תדחה|דחה|תקדים"
            + "|תסמן[יו]?|סמן|תשלח[יו]?|שלח|תענה|ענה|תעביר[יו]?|העבר|תרשום|רשום|תשמור|שמור|תכבה|כבה|תדליק|הדלק"
            + "|תעיר|תארכב|תשכח|שכח|תסיים|תכתוב|תזכיר[יו]? לי (?!מה|מתי|איפה|מי|איזה|אם)|תזכירי|תפעיל|הפעל|תכניס"
            + "|תקרא לזה|תעשה|תזמין|תשלם|להוסיף|לקבוע|ליצור|למחוק|לבטל|להסיר|להזיז|לשנות|לעדכן|לדחות|להקדים"
            + "|לסמן|לשלוח|לענות|להעביר|לרשום|לשמור|לכבות|להדליק|להעיר|להזכיר|לשים|להכניס|לתזמן|לשריין|לחסום|לארגן";

    private static final Pattern CHANGE_COMMAND = Pattern.compile(
            LEAD + "(?:" + EN_CHANGE + ")\\b|(?:^|[\\s.?!;,:]|ו)(?:" + HE_CHANGE + ")(?=\\s|$|[.?!,])",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    /** A question, a request to be told or shown, or one to confirm: words that only read. */
    private static final Pattern READS = Pattern.compile(
            "^(?:hey\\s+|hi\\s+|ok\\s+|okay\\s+|so\\s+|um+\\s+|memo,?\\s+|please\\s+)*"
                    + "(?:what|what's|whats|which|when|when's|where|who|whom|whose|how|why|any|anything"
                    + "|(?:is|are|am|was|were|do|does|did|have|has|had)\\s+(?:i|we|my|the|there|it|anything|any|a|an"
                    + "|our|this|that|these|those|he|she|they|everything|something|all|dana|me)\\b"
                    + "|(?:can|could|would|will)\\s+you\\s+(?:please\\s+)?(?:tell|show|list|read|check|confirm|find"
                    + "|look|see|give me|let me know|remind me (?:what|when|where|who|which|if|whether))"
                    + "|tell me|show me|show|list|read me|read out|give me (?:my|the|a list|an overview|a summary)|let me know|let me see|look up|find me"
                    + "|check|confirm|verify|remind me (?:what|where|who|which|if|whether|how)|remind me when(?!.*\\bto\\b)|i want to know"
                    + "|i'd like to know|do you know|display|view|see my|summarize|summarise|sum up|recap|go over"
                    + "|i was wondering|i wonder|wondering|(?:my\\s+)?(?:calendar|schedule|agenda|diary|day)\\s+(?:for|on"
                    + "|this|next|today|tomorrow|tonight)|(?:ה)?יומן\\s+(?:של|ל|ב|מחר|היום)"
                    + "|סכם|תסכם|תסכמי|סיכום של"
                    + "|מה|מתי|איפה|מי|כמה|איזה|איזו|אילו|האם|למה|איך|תגיד[יו]? לי|תגידי לי|ספר לי|תספר[יו]? לי"
                    + "|תראה לי|תראי לי|הראה לי|תציג|הצג|תקריא|תבדוק|בדוק|תאשר|אשר לי|תזכיר[יו]? לי (?:מה|מתי|איפה"
                    + "|מי|איזה|אם)|אני רוצה לדעת)\\b",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    private static final Pattern DELETES = Pattern.compile(
            "\\b(?:delete|remove|cancel|clear|erase|drop|scrap|wipe|trash|get rid|forget|archive|call off|take off"
                    + "|no longer need|don'?t need|do not need|not needed|turn(?:ed)? off|switch off|shut off|disable"
                    + "|deactivate|stop|silence|dismiss|(?:don'?t|do not|never) (?:wake|remind|ping|nudge|alert))\\b"
                    + "|(?:מחק|מחק[יו]|תמחק|תמחק[יו]|למחוק|בטל|תבטל|לבטל|תבטל[יו]|הסר|תסיר|להסיר|תנקה|נקה|תוריד|הורד"
                    + "|תשכח|שכח|לשכוח|אין צורך|לא צריך|תזרוק|תארכב|ארכב|תכבה|כבה|לכבות|תפסיק|אל תעיר|אל תזכיר"
                    + "|בלי שעון|בלי תזכורת)",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    private static final Pattern UPDATES = Pattern.compile(
            "^(?:no|nope|not|לא)\\b|\\b(?:move|reschedule|push|postpone|delay|shift|bring (?:it |the \\w+ )?forward|change"
                    + "|update|rename"
                    + "|edit|make (?:it|that|this)|call it|actually|instead|set (?:it|that|the \\w+) to|turn|switch"
                    + "|enable|disable|activate|deactivate|mark|complete|completed|done|finish|finished|check off|tick"
                    + "|star|unstar|read|unread|stop|end|until|no more|not anymore|rather|correction|i meant|toggle|call|name"
                    + "|title|retitle)\\b"
                    + "|(?:תזיז|הזז|להזיז|תשנה|שנה|לשנות|תעדכן|עדכן|לעדכן|תדחה|דחה|לדחות|תקדים|להקדים|תקרא לזה|תסמן|סמן"
                    + "|סיימתי|בוצע|עשיתי|גמרתי|תדליק|תכבה|להדליק|לכבות|הפעל|תפעיל|כבה|בעצם|במקום|תפסיק|עד|תעשה"
                    + "|תהפוך|נקרא|קראתי|לא נקרא|תקרא|תקראי|לקרוא|תעביר|תעבירי|העבר|להעביר|תקדים)",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    private static final Pattern SENDS = Pattern.compile(
            "\\b(?:send|reply|respond|answer|forward|email|e-mail|write (?:to|back)|tell)\\b"
                    + "|(?:תשלח|שלח|לשלוח|תענה|ענה|לענות|תעביר|העבר|להעביר|תכתוב|כתוב|תגיד)",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    /** A payment, said as a command (not "remind me to pay…"): Memo pays nothing. */
    private static final Pattern PAYS = Pattern.compile(
            "^(?:please\\s+|can you\\s+|could you\\s+)?(?:pay|transfer|wire|venmo)\\b(?!.*\\b(?:remind|reminder|task)\\b)"
                    + "|^(?:בבקשה\\s+)?(?:תשלם|תשלמי|שלם|תעביר\\s+\\d+)(?=\\s|$)",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    /** A ride ordered, said as a command: Memo orders nothing. */
    private static final Pattern RIDES = Pattern.compile(
            "^(?:please\\s+|can you\\s+|could you\\s+)?(?:schedule|book|order|call|get|request|send)\\s+(?:me\\s+)?"
                    + "(?:an?\\s+|the\\s+)?(?:uber|lyft|taxi|cab|ride|gett)\\b"
                    + "|^(?:בבקשה\\s+)?(?:תזמין|תזמיני|הזמן|תקרא|תשיג)(?:\\s+לי)?\\s+(?:מונית|גט|אובר|הסעה)",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    private static final Set<String> SENDING = Set.of("send_email", "reply_email", "forward_email");

    @Override
    public java.util.Optional<String> outsideScope(String message, String language) {
        String said = message.strip();
        if (PAYS.matcher(said).find()) {
            return java.util.Optional.of("payments");
        }
        if (RIDES.matcher(said).find()) {
            return java.util.Optional.of("transport");
        }
        return java.util.Optional.empty();
    }

    /**
     * A request said as a question for something to be done or had ("אפשר שעון מעורר בעוד עשרים דקות?",
     * "can I get an alarm at 6?"): never a read, whatever its question mark.
     */
    private static final Pattern ASKS_FOR = Pattern.compile(
            "^(?:(?:אפשר|תוכל|תוכלי|אתה יכול|את יכולה)(?!\\s+(?:לדעת|לראות|להגיד|לספר|לבדוק|לשמוע|להראות))"
                    + "|(?:can|could|may) (?:i|we) (?:get|have))(?=\\s|$)",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    @Override
    public boolean asksOnlyToRead(String message, String language) {
        String said = message.strip().toLowerCase(Locale.ROOT);
        boolean reads = READS.matcher(said).find() || said.endsWith("?");
        return reads
                && !ASKS_FOR.matcher(said).find()
                && !CHANGE_COMMAND.matcher(said).find();
    }

    @Override
    public boolean asksFor(String message, String language, PlanStep step) {
        String action = step.action();
        String said = message.toLowerCase(Locale.ROOT);
        if (SENDING.contains(action)) {
            return SENDS.matcher(said).find();
        }
        if (action.startsWith("delete") || action.equals("archive_email") || action.equals("forget")) {
            return DELETES.matcher(said).find();
        }
        if (changesWhatIsThere(step)) {
            // An update may be said as a delete of its old part ("cancel the 5pm, make it 6") too.
            return UPDATES.matcher(said).find() || DELETES.matcher(said).find();
        }
        return true;
    }

    /**
     * Whether a step changes or deletes what the user already has, or sends in their name (adding
     * something new is undone easily, and is what most messages ask).
     */
    public static boolean changesWhatIsThere(PlanStep step) {
        String action = step.action();
        return action.startsWith("update")
                || action.startsWith("delete")
                || action.startsWith("complete")
                || action.equals("end_recurring")
                || action.equals("toggle_item")
                || action.equals("archive_email")
                || action.equals("mark_read")
                || action.equals("mark_unread")
                || action.equals("star_email")
                || action.equals("unstar_email")
                || action.equals("label_email")
                || SENDING.contains(action);
    }

    /**
     * Whether a step writes at all (creates too): every action but those that find, list, read, search,
     * check, summarize or answer, and talk.
     */
    public static boolean writes(PlanStep step) {
        String action = step.action();
        if (step.capability().equals("general") || step.capability().equals("meta")) {
            return false;
        }
        return !(action.startsWith("find")
                || action.startsWith("list")
                || action.startsWith("search")
                || action.startsWith("read")
                || action.startsWith("check")
                || action.startsWith("get")
                || action.startsWith("summarize")
                || action.startsWith("answer")
                || action.equals("compose_email"));
    }
}
