package dev.weft.llm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.data.message.ChatMessage;
import dev.weft.core.StepScope;
import dev.weft.llm.internal.JsonExtraction;
import dev.weft.llm.internal.JsonSchemas;
import dev.weft.llm.internal.ModelCalls;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Reads a reply as JSON valid against a schema; when it is not, asks the model once more with the
 * problem, then gives up with {@link ModelOutputInvalidException} naming the bad path.
 */
final class StructuredOutput {
    private StructuredOutput() {}

    /** The parsed value, the tokens and time the repair cost (none when there was none), and whether it was repaired. */
    record Parsed(JsonNode value, Tokens repairTokens, Duration repairLatency, int repairAttempts, boolean repaired) {}

    /** Whether a reply is usable: its valid value, or where and why it is not. */
    private sealed interface Check {
        record Valid(JsonNode value) implements Check {}

        record Invalid(String pointer, String message) implements Check {}
    }

    /** @param who what made the call, for messages: {@code node 'x'}, {@code step 'B'} */
    static Parsed parse(
            StepScope context,
            String who,
            Model model,
            Optional<Prompt> prompt,
            String reply,
            JsonSchemas.Compiled schema) {
        Check.Invalid problem;
        switch (check(reply, schema)) {
            case Check.Valid valid -> {
                return new Parsed(valid.value(), Tokens.NONE, Duration.ZERO, 0, false);
            }
            case Check.Invalid invalid -> problem = invalid;
        }
        if (prompt.isEmpty()) {
            throw new ModelOutputInvalidException(
                    problem.pointer(),
                    who + ": the model's reply " + problem.message() + " (no prompt in the input to ask again with)");
        }
        List<ChatMessage> messages = ModelCalls.messages(model, prompt.get(), schema);
        ModelCalls.Outcome outcome = ModelCalls.call(
                context,
                model,
                ModelCalls.request(model, ModelCalls.repair(messages, reply, problem.message()), schema, List.of()),
                false);
        String second = text(outcome);
        return switch (check(second, schema)) {
            case Check.Valid valid ->
                new Parsed(valid.value(), outcome.tokens(), outcome.latency(), outcome.attempts(), true);
            case Check.Invalid still ->
                throw new ModelOutputInvalidException(
                        still.pointer(),
                        who + ": the model's reply " + still.message()
                                + " (asked once more with the error; the second reply failed too)");
        };
    }

    static String text(ModelCalls.Outcome outcome) {
        String text = outcome.response().aiMessage().text();
        return text == null ? "" : text;
    }

    private static Check check(String reply, JsonSchemas.Compiled schema) {
        Optional<JsonNode> json = JsonExtraction.extract(reply);
        if (json.isEmpty()) {
            return new Check.Invalid("/", "holds no JSON");
        }
        List<JsonSchemas.Violation> violations = schema.validate(json.get());
        if (violations.isEmpty()) {
            return new Check.Valid(json.get());
        }
        return new Check.Invalid(
                violations.get(0).pointer(),
                "breaks the schema at "
                        + violations.stream()
                                .map(JsonSchemas.Violation::toString)
                                .collect(Collectors.joining("; ")));
    }
}
