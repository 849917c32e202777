package dev.weft.memo.internal.planning;

import dev.weft.memo.internal.understanding.Intent;
import dev.weft.time.Span;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A request said time first, with no verb of asking: "next thursday at 4pm dentist" (an event, as
 * "dentist next thursday at 4pm" is), "how about on wensday at 5 pm call mom" (a reminder to call, as
 * "remind me on Wednesday at 5pm to call mom" is), "יום חמישי הבא ב-4 רופא שיניים". The classifier,
 * trained mostly on requests that begin with their verb, reads such a line as nothing Memo does or as
 * a web lookup; this rule stands before it and reads it as a person means it. Stateless.
 */
public final class TimeFirst {
    /** What people say before a time they suggest: "how about", "what about", "maybe", "אולי", "מה דעתך על". */
    private static final Pattern SUGGESTION = Pattern.compile(
            "^(?:how\\s+about|what\\s+about|maybe|perhaps|אולי|מה\\s+דעתך(?:\\s+על)?)\\s+", Words.FLAGS);

    /** What may stand before the time: nothing, or the preposition of a day. */
    private static final Pattern BEFORE_TIME = Pattern.compile("^\\s*(?:on|at)?\\s*$", Words.FLAGS);

    /** An errand done at a time, which a person asks to be reminded of: "call mom", "להתקשר לאמא". */
    private static final Pattern ERRAND = Pattern.compile(
            "^(?:call|phone|ring|text|email|e-mail|message|buy|pay|pick\\s+up|send|take|bring|order|book|renew|"
                    + "להתקשר|לצלצל|לקנות|לשלם|לשלוח|לאסוף|לקחת|להביא|להזמין|לחדש|לכתוב)\\b",
            Words.FLAGS);

    /**
     * Words that begin a question or a request of another kind: with them the line is not a bare
     * name, and the classifier reads it.
     */
    private static final Pattern NOT_A_NAME = Pattern.compile(
            "^(?:what|when|where|who|why|how|which|is|are|do|does|did|can|could|will|would|should|remind|schedule|"
                    + "add|delete|remove|cancel|move|show|list|tell|set|find|i|my|it|that|this|no|yes|ok|okay|"
                    + "מה|מתי|איפה|מי|למה|איך|האם|תזכיר|תזכירי|תקבע|תקבעי|תמחק|תמחקי|תוסיף|תוסיפי|תראה|תראי|"
                    + "אני|זה|לא|כן)\\b",
            Words.FLAGS);

    private static final Pattern DIGIT = Pattern.compile("\\d");
    private static final int MOST_WORDS = 4;

    private TimeFirst() {}

    /**
     * What {@code request} asks for when it is said time first: a task (a reminder, {@link
     * #isErrand}) for an errand, an event for a bare name; empty for any other request.
     */
    static Optional<Intent> intent(Request request) {
        Optional<String> named = named(request);
        if (named.isEmpty()) {
            return Optional.empty();
        }
        if (ERRAND.matcher(named.get()).find()) {
            return Optional.of(Intent.TASK_CREATE);
        }
        return NOT_A_NAME.matcher(named.get()).find() ? Optional.empty() : Optional.of(Intent.CALENDAR_CREATE);
    }

    /**
     * {@code text} without the words of a suggestion before it ("how about on Wednesday…" → "on
     * Wednesday…"), when it begins with them: the planner reads the line without them when what is left
     * is said time first ({@link #saidTimeFirst}), so that they are not taken for the errand's words.
     */
    public static Optional<String> withoutSuggestion(String text) {
        Matcher lead = SUGGESTION.matcher(text);
        return lead.find() ? Optional.of(text.substring(lead.end())) : Optional.empty();
    }

    /** Whether {@code request} begins with a time of day and names a few words after it. */
    public static boolean saidTimeFirst(Request request) {
        return named(request).isPresent();
    }

    /** Whether {@code request} is an errand said time first: "on wednesday at 5pm call mom". */
    static boolean isErrand(Request request) {
        return named(request).filter(n -> ERRAND.matcher(n).find()).isPresent();
    }

    /**
     * What follows the time of a request that begins with a time of day (a clock said in digits), when
     * it is a few words and no question; empty otherwise.
     */
    private static Optional<String> named(Request request) {
        if (request.chosen().isEmpty() || request.text().contains("?")) {
            return Optional.empty();
        }
        Times.Chosen chosen = request.chosen().get();
        Span first = chosen.spans().stream()
                .min(Comparator.comparingInt(Span::start))
                .orElseThrow();
        boolean hasHour = chosen.spans().stream()
                .anyMatch(s -> DIGIT.matcher(request.text().substring(s.start(), s.end()))
                        .find());
        if (!hasHour
                || !BEFORE_TIME
                        .matcher(request.text().substring(0, first.start()))
                        .matches()) {
            return Optional.empty();
        }
        String rest = request.rest().strip().replaceAll("[.!,]+$", "").strip();
        int words = rest.isEmpty() ? 0 : rest.split("\\s+").length;
        return words == 0 || words > MOST_WORDS ? Optional.empty() : Optional.of(rest);
    }
}
