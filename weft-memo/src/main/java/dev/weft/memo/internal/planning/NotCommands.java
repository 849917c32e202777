package dev.weft.memo.internal.planning;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Words about a change that ask for none ("don't forget to…" and "אל תשכח…" ask for a reminder, and are not these): a change said not to be made ("don't delete the meeting",
 * "אל תמחק את הפגישה", "don't send that email"), a question whether or why ("should I cancel the
 * dentist?", "is it ok to move the meeting to 5?", "why did you delete my reminder?", "למה מחקת…?", "מה
 * יקרה אם אבטל…?"), or what the user did themselves ("I deleted the wrong reminder", "מחקתי בטעות את
 * הרשימה"). Memo answers them and changes nothing.
 */
public final class NotCommands {
    private static final int FLAGS = Words.FLAGS;

    private static final String EN_CHANGE = "(?:delete|remove|cancel|clear|erase|drop|send|email|forward|reply|move"
            + "|reschedule|change|add|create|set|book|schedule|archive|mark|complete|tick|wipe|empty|touch)";

    private static final Pattern NEGATED = Pattern.compile(
            "^(?:please\\s+|no,?\\s+|wait,?\\s+|oh\\s+|and\\s+|but\\s+)*(?:don'?t|do not|never|no need to|you don'?t need to"
                    + "|there'?s no need to|stop,?\\s+don'?t)\\s+(?:\\w+\\s+)?" + EN_CHANGE + "\\b"
                    + "|^(?:בבקשה\\s+|לא,?\\s+|רגע,?\\s+)*(?:אל|לא צריך ל?|אין צורך ל?)\\s*-?\\s*"
                    + "(?:ת|ל)(?:מחק|מחוק|בטל|סיר|ריד|וריד|שלח|שלוח|עביר|זיז|שנה|וסיף|קבע|סמן|עדכן|נקה|רוקן|ארכב)\\S*"
                    + "|^(?:oh\\s+|ok\\s+|okay\\s+)?(?:forget (?:about )?it|never ?mind|nvm)[.!]*$"
                    + "|^(?:עזוב|עזבי|תשכח מזה|תשכחי מזה|לא משנה)[,.!]*(?:\\s+(?:לא משנה|עזוב|זה))?[.!]*$",
            FLAGS);

    private static final Pattern QUESTION = Pattern.compile(
            "^(?:so\\s+|hmm,?\\s+|um,?\\s+)?(?:should i|shall i|do you think i should|would it be ok to|is it ok(?:ay)? to|is it a good idea to"
                    + "|what happens if|what if i|why did you|why would you|did you|have you|how come you)\\s+"
                    + "(?:\\w+\\s+){0,2}?" + EN_CHANGE + "(?:d|ed|led)?\\b" // "how come you moved / cancelled"
                    + "|^(?:למה|מדוע|איך זה ש|האם כדאי ל?|כדאי ל|מה יקרה אם|מה אם)\\s*(?:\\S+\\s+){0,2}?"
                    + "(?:מחקת|ביטלת|העברת|שלחת|שינית|הזזת|מחקת|הוספת|ל?מחוק|ל?בטל|ל?העביר|ל?שלוח|ל?שנות|אמחק|אבטל|אעביר|אשלח|אשנה)",
            FLAGS);

    private static final Pattern PAST = Pattern.compile(
            "^(?!.*\\b(?:remove|delete|take|cancel|clear|drop|update|change|move)\\s+(?:it|that|them|this)\\b)"
                    + "(?!.*(?:תמחק|תמחקי|תוריד|תורידי|תבטל|תבטלי|תעדכן|תעדכני|תעביר|תעבירי))"
                    + "(?:(?:oops,?\\s+|ugh,?\\s+|oh no,?\\s+)?i\\s+(?:accidentally\\s+|just\\s+|already\\s+|mistakenly\\s+)?"
                    + "(?:deleted|removed|cancell?ed|erased|cleared|sent|moved|archived|lost)\\b"
                    + "|(?:אופס,?\\s+)?(?:מחקתי|ביטלתי|שלחתי|העברתי|הזזתי|איבדתי)\\b)",
            FLAGS);

    /** "why did you delete…?", "למה מחקת…?": asks for a reason, which no read of the user's things gives. */
    private static final Pattern WHY =
            Pattern.compile("^(?:so\\s+|hmm,?\\s+|um,?\\s+)?(?:why|how come)\\b|^(?:ו?למה|מדוע|איך זה ש)", FLAGS);

    private NotCommands() {}

    /** Whether {@code text} asks why a change was made ("why did you move my meeting?"), not for one or a read. */
    public static boolean asksWhy(String text) {
        String t = text.strip();
        return QUESTION.matcher(t).find() && WHY.matcher(t).find();
    }

    /** {@code negated}, {@code question} or {@code past} when {@code text} is such words; empty otherwise. */
    public static Optional<String> kind(String text) {
        String t = text.strip();
        if (NEGATED.matcher(t).find()) {
            return Optional.of("negated");
        }
        if (QUESTION.matcher(t).find()) {
            return Optional.of("question");
        }
        if (PAST.matcher(t).find()) {
            return Optional.of("past");
        }
        return Optional.empty();
    }
}
