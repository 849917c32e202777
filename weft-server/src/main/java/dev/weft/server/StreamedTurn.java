package dev.weft.server;

import dev.weft.assistant.Assistant;
import dev.weft.assistant.Message;
import dev.weft.assistant.Turn;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One turn of an assistant run on a thread of its own, the model's words handed to the caller as the
 * turn's run produces them: the words of that run only (the new run the message starts, or the waiting
 * run of the conversation that it continues), never of another run of the user's. Used by one
 * request's thread; close it when done.
 */
final class StreamedTurn implements AutoCloseable {
    /** The event a model's token delta comes as, and its {@code source} (weft-llm's {@code ModelCalls}). */
    private static final String MODEL_DELTA = "assistant.delta";

    private static final String MODEL_SOURCE = "model";

    /** Put after the last word once the turn is over, so that the reader waits on the queue alone. */
    private static final String END = new String("end of turn");

    private final String runId;
    private final LinkedBlockingQueue<String> words = new LinkedBlockingQueue<>();
    private final CompletableFuture<Turn> turn = new CompletableFuture<>();
    private final EventHub.Following following;
    private boolean ended;

    private StreamedTurn(Backend backend, Assistant assistant, Message message, String runId) {
        this.runId = runId;
        Set<String> runs = new HashSet<>();
        runs.add(runId);
        assistant.continues(backend.runner(), message.user(), message.session()).ifPresent(runs::add);
        Set<String> followed = Set.copyOf(runs);
        following = backend.hub().follow(event -> {
            if (event.type().equals(MODEL_DELTA)
                    && followed.contains(event.runId())
                    && event.data().path("source").asText().equals(MODEL_SOURCE)) {
                words.add(event.data().path("text").asText());
            }
        });
        Thread.ofVirtual().name("weft-turn-" + runId).start(() -> {
            try {
                turn.complete(assistant.converse(backend.runner(), message.runId(runId)));
            } catch (RuntimeException | Error e) {
                // Whatever ends the turn ends the stream: it never waits on a turn that is over.
                turn.completeExceptionally(e);
            } finally {
                words.add(END);
            }
        });
    }

    /** Starts {@code message}'s turn with {@code assistant}, a new run of it to have the id {@code runId}. */
    static StreamedTurn start(Backend backend, Assistant assistant, Message message, String runId) {
        return new StreamedTurn(backend, assistant, message, runId);
    }

    /** The id a new run of the turn has (the turn may continue a waiting run instead). */
    String runId() {
        return runId;
    }

    /**
     * The model's next words, waiting for them; empty once the turn is over and every word was handed out.
     *
     * @throws InterruptedException when the request's thread is interrupted
     */
    Optional<String> next() throws InterruptedException {
        if (ended) {
            return Optional.empty();
        }
        String word = words.take();
        if (word == END) {
            ended = true;
            return Optional.empty();
        }
        return Optional.of(word);
    }

    /**
     * The finished turn (call it after {@link #next} came back empty).
     *
     * @throws CompletionException holding what the turn failed with
     */
    Turn result() {
        return turn.join();
    }

    @Override
    public void close() {
        following.close();
    }
}
