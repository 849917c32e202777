package dev.weft.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Function;

/**
 * Sends the requests of many threads to Redis together, as a database's group commit does: a request
 * that comes while none is being sent goes at once, alone; those that come while a batch is on its
 * way wait for it and go together in the next, one round trip for all. So it adds no wait when there
 * is one request at a time, and saves a round trip per request when there are many. Each caller
 * waits for its own answer. Thread-safe; {@link #close} fails what is still waiting.
 *
 * @param <I> a request
 * @param <O> its answer
 */
final class Batcher<I, O> implements AutoCloseable {
    private final Function<List<I>, List<Object>> send;
    private final int most;
    private final LinkedBlockingQueue<Waiting<I, O>> queue = new LinkedBlockingQueue<>();
    private final Thread sender;
    private volatile boolean closed;

    private record Waiting<I, O>(I request, CompletableFuture<O> answer) {}

    /**
     * @param send sends a batch and answers each request in order: its answer, or the {@link
     *     RuntimeException} it failed with; a batch that fails as a whole throws
     * @param most the most requests in one batch
     */
    Batcher(String name, int most, Function<List<I>, List<Object>> send) {
        this.send = Objects.requireNonNull(send, "send");
        this.most = most;
        this.sender = Thread.ofVirtual().name(name).start(this::sendForever);
    }

    /**
     * Sends {@code request} with whatever else is waiting, and answers it.
     *
     * @throws RuntimeException what the request, or its batch, failed with
     */
    O send(I request) {
        if (closed) {
            throw new RedisUnavailableException("the connection to Redis is closed");
        }
        CompletableFuture<O> answer = new CompletableFuture<>();
        queue.add(new Waiting<>(request, answer));
        if (closed) {
            failWaiting(); // closed between the check above and the add: the sender may be gone
        }
        try {
            return answer.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : new CompletionException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Redis", e);
        }
    }

    /** How many requests wait for the next batch (not counting the one on its way). */
    int waiting() {
        return queue.size();
    }

    @SuppressWarnings("unchecked")
    private void sendForever() {
        List<Waiting<I, O>> batch = new ArrayList<>();
        while (!closed) {
            try {
                batch.add(queue.take());
            } catch (InterruptedException e) {
                break;
            }
            queue.drainTo(batch, most - 1);
            try {
                List<Object> answers =
                        send.apply(batch.stream().map(Waiting::request).toList());
                for (int i = 0; i < batch.size(); i++) {
                    Object answer = answers.get(i);
                    if (answer instanceof RuntimeException failure) {
                        batch.get(i).answer().completeExceptionally(failure);
                    } else {
                        batch.get(i).answer().complete((O) answer);
                    }
                }
            } catch (RuntimeException | Error e) {
                batch.forEach(waiting -> waiting.answer().completeExceptionally(e));
            }
            batch.clear();
        }
        failWaiting();
    }

    private void failWaiting() {
        Waiting<I, O> left;
        while ((left = queue.poll()) != null) {
            left.answer().completeExceptionally(new RedisUnavailableException("the connection to Redis is closed"));
        }
    }

    @Override
    public void close() {
        closed = true;
        sender.interrupt();
        failWaiting();
    }
}
