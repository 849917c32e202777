package dev.weft.language;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A line that only says yes, no or "ok", in English or Hebrew, and what an assistant answers it when
 * nothing waits for an answer: every assistant reads these the same way, so a bare "no" is never
 * planned as a request by one and answered by another. Stateless.
 */
public final class BareAnswers {
    /** A line that only turns something down, with nothing else asked: "no", "cancel", "never mind", "עזוב". */
    private static final Pattern NO = Pattern.compile("(?iU)^\\s*(?:(?:oh\\s+|ok\\s+|okay\\s+)?(?:n|no|nope|nah"
            + "|cancel|stop|never ?mind|nvm|forget (?:about )?it|no,? thanks?(?: you)?|no need)"
            + "|לא|בטל|בטלי|תבטל|תבטלי|עזוב|עזבי|לא משנה|תשכח מזה|תשכחי מזה|לא צריך|לא,? תודה|אין צורך)\\s*[.!]*\\s*$");
    /** A bare "yes" with nothing asked before it. */
    private static final Pattern YES =
            Pattern.compile("(?iU)^\\s*(?:y|yes|yeah|yep|yup|go ahead|כן|בטח|אישור)\\s*[.!]*\\s*$");
    /** A line that only takes note: "ok", "great", "סבבה". */
    private static final Pattern NOTED = Pattern.compile(
            "(?iU)^\\s*(?:ok|okay|k|sure|fine|alright|all right|great|cool|perfect"
                    + "|good|got it|nice|awesome|סבבה|אוקיי|אוקי|בסדר|יופי|מעולה|אחלה|טוב|מצוין|הבנתי|נהדר)\\s*[.!]*\\s*$");

    private BareAnswers() {}

    /** Whether {@code message} only says yes ("yes", "go ahead", "כן"). */
    public static boolean saysYes(String message) {
        return YES.matcher(message).matches();
    }

    /** Whether {@code message} only turns something down ("no", "never mind", "עזוב"): a no to whatever waits. */
    public static boolean saysNo(String message) {
        return NO.matcher(message).matches();
    }

    /** Whether {@code message} only takes note ("ok", "great", "סבבה"). */
    public static boolean takesNote(String message) {
        return NOTED.matcher(message).matches();
    }

    /**
     * The answer to a line that only says no, yes or "ok" when nothing waits for one: a short
     * acknowledgement in {@code language} ({@code he} or English), never a plan, and nothing is changed.
     * Empty for any other line.
     */
    public static Optional<String> acknowledgement(String message, String language) {
        boolean hebrew = language.equals("he");
        if (saysNo(message) || takesNote(message)) {
            return Optional.of(hebrew ? "בסדר." : "OK.");
        }
        if (saysYes(message)) {
            return Optional.of(
                    hebrew
                            ? "בסדר — אין כרגע שום דבר שמחכה לאישור. מה תרצה שאעשה?"
                            : "OK — nothing is waiting for a yes right now. What would you like me to do?");
        }
        return Optional.empty();
    }
}
