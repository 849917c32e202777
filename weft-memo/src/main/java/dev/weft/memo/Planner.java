package dev.weft.memo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.plan.Plan;
import java.time.ZonedDateTime;
import java.util.Objects;

/**
 * Turns a user's message into a plan of steps (seed 000's planner): {@code {id, capability, action,
 * constraints, changes, dependsOn}}, with the intent and how sure it is. Implementations are
 * thread-safe.
 */
public interface Planner {
    /**
     * What a planner is told besides the message: the user's language and their time, in their zone;
     * and where it says how it planned ({@code facts}: the model, tokens, a repair), kept with the run.
     */
    record Context(String language, ZonedDateTime now, ObjectNode facts) {
        public Context {
            Objects.requireNonNull(language, "language");
            Objects.requireNonNull(now, "now");
            Objects.requireNonNull(facts, "facts");
            if (!language.equals("en") && !language.equals("he")) {
                throw new IllegalArgumentException("language must be 'en' or 'he', was '" + language + "'");
            }
        }

        public Context(String language, ZonedDateTime now) {
            this(language, now, Json.object());
        }
    }

    Plan plan(String message, Context context);

    /** The planner's name, kept with each run it planned: {@code offline}, or {@code model}. */
    default String name() {
        return "offline";
    }
}
