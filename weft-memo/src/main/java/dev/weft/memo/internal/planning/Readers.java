package dev.weft.memo.internal.planning;

import dev.weft.memo.internal.understanding.Intent;
import dev.weft.memo.internal.understanding.IntentClassifier;
import dev.weft.memo.internal.understanding.Utterances;

/**
 * What a request asks for, and the reader that takes its slots: {@link CalendarRequests}, {@link
 * TaskRequests}, {@link ListRequests}, {@link EmailRequests}, {@link MemoryRequests} or {@link
 * ChatRequests}. Thread-safe.
 */
public final class Readers {
    private static final IntentClassifier CLASSIFIER = IntentClassifier.create();

    /** One request understood: its intent and how sure the classifier is of it. */
    public record Understood(Intent intent, double confidence) {}

    private Readers() {}

    /**
     * The intent of a request: the classifier's, but for a request whose words ask the second brain
     * in so many words (keep this, forget, correct or summarize what I said), and for one where the classifier
     * finds it likelier, all topics together, that Memo does not do it.
     */
    public static Understood understand(Request request) {
        IntentClassifier.Classification ranked =
                CLASSIFIER.classify(Utterances.tokens(request.text(), request.times()));
        if (NotCommands.kind(request.text()).isPresent()
                && (changes(ranked.top())
                        || MemoryRequests.FORGET.matcher(request.text()).find()
                        || NotCommands.asksWhy(request.text()))) {
            // "don't delete the meeting", "should I cancel it?", "why did you delete my reminder?", "I deleted
            // the wrong list", "forget it": words about a change are not a request to make one. "Why did
            // you…?" asks for a reason, which a read of the user's things does not give either ("did you
            // add milk?" is answered by reading the list, and stays with the classifier).
            return new Understood(Intent.SMALL_TALK, Math.max(ranked.probability(Intent.SMALL_TALK), 0.9));
        }
        if (MemoryRequests.UPDATE.matcher(request.text()).find()
                || MemoryRequests.FORGET.matcher(request.text()).find()) {
            return new Understood(Intent.MEMORY_FORGET, Math.max(ranked.probability(Intent.MEMORY_FORGET), 0.9));
        }
        if (MemoryRequests.KEEP.matcher(request.text()).find()) {
            return new Understood(Intent.MEMORY_STORE, Math.max(ranked.probability(Intent.MEMORY_STORE), 0.9));
        }
        if (MemoryRequests.SUMMARY.matcher(request.text()).find()) {
            return new Understood(Intent.MEMORY_QUERY, Math.max(ranked.probability(Intent.MEMORY_QUERY), 0.9));
        }
        java.util.Optional<Intent> timeFirst = TimeFirst.intent(request);
        if (timeFirst.isPresent() && ranked.top() != Intent.CALENDAR_CREATE && ranked.top() != Intent.TASK_CREATE) {
            // "next thursday at 4pm dentist", "on wednesday at 5pm call mom": an event or a reminder said
            // time first, which the classifier (trained on requests that begin with their verb) misses.
            return new Understood(timeFirst.get(), Math.max(ranked.probability(timeFirst.get()), 0.8));
        }
        if (!ranked.top().outOfScope() && ranked.outOfScope() > ranked.confidence()) {
            Intent topic = ranked.ranked().stream()
                    .map(IntentClassifier.Scored::intent)
                    .filter(Intent::outOfScope)
                    .findFirst()
                    .orElseThrow();
            return new Understood(topic, ranked.outOfScope());
        }
        if (ranked.top() == Intent.CALENDAR_UPDATE && CalendarRequests.saysCancelled(request.text())) {
            // "the meeting with the bank tomorrow was cancelled, take it off": not a change of it.
            return new Understood(Intent.CALENDAR_DELETE, ranked.confidence());
        }
        if (ranked.top() == Intent.CALENDAR_CREATE
                && ASKS.matcher(request.text().strip()).find()) {
            // "do I have a meeting with Avi on Wednesday at 12:30?", "יש לי פגישה עם אבי ביום רביעי?": a
            // question about the calendar, never an event to make.
            return new Understood(Intent.CALENDAR_QUERY, ranked.confidence());
        }
        return new Understood(ranked.top(), ranked.top().outOfScope() ? ranked.outOfScope() : ranked.confidence());
    }

    /** Whether {@code intent} makes, changes, deletes or sends something (undo and keeping a thought aside). */
    private static boolean changes(Intent intent) {
        return intent.writes() && intent != Intent.UNDO && intent != Intent.MEMORY_STORE;
    }

    /** A question about what is there, not a request to add: "do I have…?", "is there…?", "יש לי…?", "האם…". */
    private static final java.util.regex.Pattern ASKS = java.util.regex.Pattern.compile(
            "^(?:so\\s+|and\\s+|hey\\s+|um\\s+)?(?:do|did|have|am|is|are|was|were)\\s+(?:i|there|we)\\b(?!.*\\b(?:add|put|schedule|book)\\b)"
                    + "|^(?:האם\\s+)?(?:יש\\s+לי|יש\\s+לנו|יש|אני|קבעתי|קבענו)\\b.*\\?\\s*$|^האם\\s",
            Words.FLAGS);

    /** The plan step's reading of {@code request} for {@code intent}, by the reader of its capability. */
    public static Reading read(Intent intent, Request request) {
        return switch (intent) {
            case CALENDAR_QUERY, CALENDAR_CREATE, CALENDAR_UPDATE, CALENDAR_DELETE ->
                CalendarRequests.read(intent, request);
            case TASK_CREATE, TASK_QUERY, TASK_UPDATE, TASK_DELETE, TASK_COMPLETE -> TaskRequests.read(intent, request);
            case LIST_CREATE, LIST_ADD, LIST_QUERY, LIST_REMOVE_ITEM, LIST_DELETE, LIST_CHECK ->
                ListRequests.read(intent, request);
            case EMAIL_SEND, EMAIL_QUERY, EMAIL_READ, EMAIL_REPLY, EMAIL_FORWARD, EMAIL_MANAGE ->
                EmailRequests.read(intent, request);
            case MEMORY_STORE, MEMORY_QUERY, MEMORY_FORGET -> MemoryRequests.read(intent, request);
            default -> ChatRequests.read(intent, request);
        };
    }
}
