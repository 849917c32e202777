package dev.weft.assistant;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Event;
import dev.weft.core.RunResult;
import java.util.Objects;

/**
 * What an assistant did with one message: the reply's language, the run, the reply's text, the whole
 * turn as JSON (what {@code ask --json} prints), and the model tokens the turn used.
 */
public record Turn(String language, RunResult run, String text, ObjectNode json, Usage usage) {
    public Turn {
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(usage, "usage");
    }

    /**
     * What a finished {@code reply} says that the model's {@code streamed} words (shown as they came)
     * did not: the rest after them (nothing, for a reply that is the model's words alone), and what came
     * before them in the reply after that; all of it when nothing was streamed or the reply does not
     * hold the words.
     */
    public static String remainder(String streamed, String reply) {
        String said = streamed.strip();
        if (said.isEmpty()) {
            return reply;
        }
        int at = reply.indexOf(said);
        if (at < 0) {
            return reply.isEmpty() ? "" : "\n\n" + reply;
        }
        String before = reply.substring(0, at).strip();
        String after = reply.substring(at + said.length());
        if (before.isEmpty()) {
            return after;
        }
        return (after.isBlank() ? "" : after) + "\n\n" + before;
    }

    /** Model tokens read and written in a turn; zero for a turn answered by rules. */
    public record Usage(long promptTokens, long completionTokens) {
        public static final Usage NONE = new Usage(0, 0);

        public Usage {
            if (promptTokens < 0 || completionTokens < 0) {
                throw new IllegalArgumentException(
                        "token counts must not be negative, were " + promptTokens + " and " + completionTokens);
            }
        }

        public long totalTokens() {
            return promptTokens + completionTokens;
        }

        public Usage plus(Usage other) {
            return new Usage(promptTokens + other.promptTokens, completionTokens + other.completionTokens);
        }

        /**
         * The tokens of the model calls among {@code events} (each {@code model.called} event's {@code
         * inputTokens} and {@code outputTokens}, as far as the provider reported them).
         */
        public static Usage ofModelCalls(Iterable<Event> events) {
            long prompt = 0;
            long completion = 0;
            for (Event event : events) {
                if (event.type().equals(MODEL_CALLED)) {
                    prompt += Math.max(0, event.data().path("inputTokens").asLong(0));
                    completion += Math.max(0, event.data().path("outputTokens").asLong(0));
                }
            }
            return new Usage(prompt, completion);
        }

        /** The event a model call is reported by once it answered (weft-llm's {@code ModelCalls.CALLED_EVENT}). */
        static final String MODEL_CALLED = "model.called";
    }
}
