package dev.weft.channels;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Work for chats: one chat's messages are handled one after another in the order they came, different
 * chats' at the same time, each on a virtual thread. Thread-safe.
 */
final class ChatQueues implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ChatQueues.class.getName());

    private final Map<String, ExecutorService> queues = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** Queues {@code work} behind the chat's earlier work. */
    void submit(String chatId, Runnable work) {
        if (closed) {
            return;
        }
        queues.computeIfAbsent(
                        chatId,
                        id -> Executors.newSingleThreadExecutor(
                                Thread.ofVirtual().name("weft-chat-" + id).factory()))
                .execute(() -> {
                    try {
                        work.run();
                    } catch (RuntimeException e) {
                        LOG.log(System.Logger.Level.WARNING, "channels: a message of chat " + chatId + " failed", e);
                    }
                });
    }

    /** Lets the work queued so far finish, for at most {@code seconds}. */
    @Override
    public void close() {
        closed = true;
        queues.values().forEach(ExecutorService::shutdown);
        for (ExecutorService queue : queues.values()) {
            try {
                queue.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
