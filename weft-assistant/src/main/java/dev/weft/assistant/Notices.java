package dev.weft.assistant;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What an assistant tells its users without being asked — a reminder that fell due — for the messaging
 * channels to deliver to the chat it belongs to. Implementations are thread-safe.
 */
public interface Notices {
    /**
     * One notice: whose it is, its id (the same however often it is read), its text as the user reads
     * it, the id of what it is about (the task or event a reminder belongs to), and when it was made.
     */
    record Notice(String user, String id, String text, String subject, Instant at) {
        public Notice {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(at, "at");
        }
    }

    /** {@code user}'s latest {@code count} notices, oldest first. */
    List<Notice> recent(String user, int count);

    /**
     * {@code user}'s notice {@code id} as its assistant describes it in JSON — its kind as {@code type},
     * its text as the user reads it as {@code notice}, and what else the assistant says of it — for a
     * webhook to send; empty when the notice is not kept (any more).
     */
    default Optional<ObjectNode> describe(String user, String id) {
        return Optional.empty();
    }

    /**
     * {@code user}'s notices that no client has shown yet, oldest first, as {@link #describe} describes
     * them (each with its {@code id} and {@code type}); none by default.
     */
    default List<ObjectNode> unshown(String user) {
        return List.of();
    }

    /** Records that {@code user}'s notices {@code ids} were shown (sent to a client) at {@code at}. */
    default void shown(String user, List<String> ids, Instant at) {}

    /** Calls {@code listener} whenever this process makes a notice, so it can be delivered at once. */
    void onNotice(Runnable listener);

    /**
     * Calls {@code listener} with the user whose notice this process just made, so that what waits on
     * that user's notices alone (a page's stream) is woken at once; by default nothing is called, and
     * such a stream finds the notice when it next looks.
     */
    default void onNoticeOf(Consumer<String> listener) {}

    /**
     * Starts making notices in this process (firing reminders as they fall due) until the handle is
     * closed. A process that already does (a server) need not.
     */
    AutoCloseable start(String processName);
}
