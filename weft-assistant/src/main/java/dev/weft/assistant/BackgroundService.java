package dev.weft.assistant;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Work an assistant does in the background of a process that serves it (Memo keeping users' connected
 * calendars in sync, or watching a user's inbox), started by that process (the server, a chat) and
 * stopped with it, so that a surface runs it without knowing what it is. Immutable and thread-safe.
 *
 * @param name what it is called in settings and logs ({@code calendar-sync}); unique among one
 *     assistant's services
 * @param description one line on what it does, for a person
 * @param every how often it runs unless the process says otherwise
 * @param onRequest whether it runs only when asked for (a chat's {@code --watch-mail}) rather than
 *     whenever the assistant is served
 * @param starter what starts it
 */
public record BackgroundService(String name, String description, Duration every, boolean onRequest, Starter starter) {
    public BackgroundService {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(every, "every");
        Objects.requireNonNull(starter, "starter");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a background service needs a name, was blank");
        }
        if (every.isNegative() || every.isZero()) {
            throw new IllegalArgumentException("service '" + name + "' must run every positive while, was " + every);
        }
    }

    /** Whose work a service does: every user of the store (a server), or one (a chat at a terminal). */
    public sealed interface Scope {
        /** Every user the assistant knows of. */
        record Everyone() implements Scope {}

        /** One user's, whose person is watching ({@code tell} reaches them). */
        record OneUser(String user) implements Scope {
            public OneUser {
                Objects.requireNonNull(user, "user");
            }
        }

        static Scope everyone() {
            return new Everyone();
        }

        static Scope of(String user) {
            return new OneUser(user);
        }
    }

    /** Starts a service; see {@link BackgroundService#start}. */
    @FunctionalInterface
    public interface Starter {
        AutoCloseable start(Duration every, Scope scope, Consumer<String> tell);
    }

    /**
     * Starts the service for {@code scope}, running every {@code every} (the first round at once), until
     * the handle is closed; {@code tell} hears, as lines for a person, what it has to say as it goes (a
     * new email, a sync that failed; a server logs them). A service with nothing to do for the scope (a
     * user with no calendar) says so through {@code tell} or not at all, and its handle does nothing.
     *
     * @throws IllegalArgumentException for an interval that is not positive
     */
    public AutoCloseable start(Duration every, Scope scope, Consumer<String> tell) {
        if (every.isNegative() || every.isZero()) {
            throw new IllegalArgumentException("service '" + name + "' must run every positive while, was " + every);
        }
        return starter.start(every, Objects.requireNonNull(scope, "scope"), Objects.requireNonNull(tell, "tell"));
    }

    /** Starts it at its own interval. */
    public AutoCloseable start(Scope scope, Consumer<String> tell) {
        return start(every, scope, tell);
    }
}
