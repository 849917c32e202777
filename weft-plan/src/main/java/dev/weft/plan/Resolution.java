package dev.weft.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;

/** What a resolver makes of a step: a tool call to execute, or a question for the user. */
public sealed interface Resolution {
    /** Call the tool {@code functionName} with {@code args} (placeholders allowed; resolved before the call). */
    record Execute(String functionName, ObjectNode args) implements Resolution {
        public Execute {
            Objects.requireNonNull(functionName, "functionName");
            Objects.requireNonNull(args, "args");
        }
    }

    /** Ask the user {@code question}, optionally offering {@code options}; the run waits for the answer. */
    record Clarify(String question, List<String> options) implements Resolution {
        public Clarify {
            Objects.requireNonNull(question, "question");
            options = List.copyOf(options);
        }
    }

    static Resolution execute(String functionName, ObjectNode args) {
        return new Execute(functionName, args);
    }

    static Resolution clarify(String question, String... options) {
        return new Clarify(question, List.of(options));
    }
}
