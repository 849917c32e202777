package dev.weft.memo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.plan.Plan;
import java.time.ZonedDateTime;
import java.util.Objects;
import java.util.Optional;

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
    record Context(String language, ZonedDateTime now, ObjectNode facts, Optional<Referent> referent) {
        public Context {
            Objects.requireNonNull(language, "language");
            Objects.requireNonNull(now, "now");
            Objects.requireNonNull(facts, "facts");
            Objects.requireNonNull(referent, "referent");
            if (!language.equals("en") && !language.equals("he")) {
                throw new IllegalArgumentException("language must be 'en' or 'he', was '" + language + "'");
            }
        }

        public Context(String language, ZonedDateTime now, ObjectNode facts) {
            this(language, now, facts, Optional.empty());
        }

        public Context(String language, ZonedDateTime now) {
            this(language, now, Json.object());
        }

        /** This context, with {@code referent} as what "it" means. */
        public Context about(Referent referent) {
            return new Context(language, now, facts, Optional.of(referent));
        }
    }

    /**
     * What "it" means in a follow-up ("move it to 10", "תמחק את זה"): the one task or event the user's
     * latest requests made, changed or found, with its time when it has one.
     *
     * @param kind {@code task} or {@code event}
     */
    record Referent(String kind, String id, String text, Optional<ZonedDateTime> at) {
        public Referent {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(at, "at");
            if (!kind.equals("task") && !kind.equals("event")) {
                throw new IllegalArgumentException("kind must be 'task' or 'event', was '" + kind + "'");
            }
        }
    }

    Plan plan(String message, Context context);

    /** The planner's name, kept with each run it planned: {@code offline}, or {@code model}. */
    default String name() {
        return "offline";
    }
}
