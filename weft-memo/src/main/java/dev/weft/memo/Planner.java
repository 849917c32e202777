package dev.weft.memo;

import dev.weft.plan.Plan;
import java.time.ZonedDateTime;
import java.util.Objects;

/**
 * Turns a user's message into a plan of steps (seed 000's planner): {@code {id, capability, action,
 * constraints, changes, dependsOn}}, with the intent and how sure it is. Implementations are
 * thread-safe.
 */
public interface Planner {
    /** What a planner is told besides the message: the user's language and their time, in their zone. */
    record Context(String language, ZonedDateTime now) {
        public Context {
            Objects.requireNonNull(language, "language");
            Objects.requireNonNull(now, "now");
            if (!language.equals("en") && !language.equals("he")) {
                throw new IllegalArgumentException("language must be 'en' or 'he', was '" + language + "'");
            }
        }
    }

    Plan plan(String message, Context context);
}
