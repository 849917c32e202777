package dev.weft.llm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.weft.core.Json;
import dev.weft.core.StepScope;
import dev.weft.llm.internal.JsonSchemas;
import dev.weft.llm.internal.ModelCalls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Model calls made from inside any step — a plan step's resolver or tool, a planner — through the
 * same path as the model nodes: transient failures retried under the model's policy (waiting at
 * least the provider's {@code Retry-After}, on the step's time source, with {@code model.retrying}
 * events), the prompt's fixed part first and its per-request part last (so provider prompt caches
 * hit), and the step's facts recorded on it ({@code prompt}, {@code model}, {@code tokens}, {@code
 * latencyMs}, {@code attempts}; a later call of the same step replaces an earlier one's). A reply is
 * the step's work, not words to the user, and is not streamed — unless it is the user's reply: {@link
 * #reply}, or {@link #text} called inside {@link #speaking}, streams the model's tokens as they come as
 * {@code assistant.delta} events {@code {"text": delta, "source": "model"}} (heard by the run's
 * listeners at once, stored with the step), which a chat endpoint forwards while the run goes on.
 * Stateless and thread-safe.
 */
public final class StepModels {
    private static final ThreadLocal<Boolean> SPEAKING = ThreadLocal.withInitial(() -> false);

    private StepModels() {}

    /**
     * The model's reply to {@code prompt}, as text; streamed as {@code assistant.delta} events when
     * called inside {@link #speaking} on this thread.
     */
    public static String text(StepScope step, Model model, Prompt prompt) {
        return text(step, model, prompt, SPEAKING.get());
    }

    /**
     * The model's reply to {@code prompt}, written to the user: each token delta is emitted as an
     * {@code assistant.delta} event {@code {"text", "source": "model"}} as the provider streams it (the
     * whole reply as one delta from a model that does not stream).
     */
    public static String reply(StepScope step, Model model, Prompt prompt) {
        return text(step, model, prompt, true);
    }

    /**
     * Runs {@code work} on this thread with the model's words it asks for through {@link #text} being
     * the user's reply, streamed as {@link #reply} streams them: how an assistant marks the steps that
     * answer the user (a chat step, an answer from memory) without its resolvers knowing of streaming.
     */
    public static <T> T speaking(Supplier<T> work) {
        boolean before = SPEAKING.get();
        SPEAKING.set(true);
        try {
            return work.get();
        } finally {
            SPEAKING.set(before);
        }
    }

    private static String text(StepScope step, Model model, Prompt prompt, boolean stream) {
        StepFacts.prompt(step, prompt);
        ModelCalls.Outcome outcome =
                ModelCalls.call(step, model, ModelCalls.request(model, prompt, null, List.of()), stream);
        StepFacts.call(step, model, outcome);
        return StructuredOutput.text(outcome);
    }

    /**
     * The model's reply to {@code prompt} as JSON valid against {@code schema} (a strict response
     * format where the provider takes one, the schema in the system prompt where not); a reply that is
     * not is sent back once with the problem.
     *
     * @throws ModelOutputInvalidException ({@code E_MODEL_OUTPUT_INVALID}) naming the bad path when the
     *     second reply fails too
     * @throws IllegalArgumentException when {@code schema} is not a JSON Schema object
     */
    public static JsonNode structured(StepScope step, Model model, Prompt prompt, JsonNode schema) {
        JsonSchemas.Compiled compiled = JsonSchemas.compile(schema);
        StepFacts.prompt(step, prompt);
        ModelCalls.Outcome outcome =
                ModelCalls.call(step, model, ModelCalls.request(model, prompt, compiled, List.of()), false);
        StructuredOutput.Parsed parsed;
        try {
            parsed = StructuredOutput.parse(
                    step,
                    "run '" + step.runId() + "'",
                    model,
                    Optional.of(prompt),
                    StructuredOutput.text(outcome),
                    compiled);
        } catch (RuntimeException e) {
            StepFacts.call(step, model, outcome);
            throw e;
        }
        Duration latency = outcome.latency().plus(parsed.repairLatency());
        StepFacts.call(
                step,
                model,
                outcome.tokens().plus(parsed.repairTokens()),
                latency,
                outcome.attempts() + parsed.repairAttempts());
        step.record("repaired", com.fasterxml.jackson.databind.node.BooleanNode.valueOf(parsed.repaired()));
        return parsed.value();
    }

    /**
     * Seed 004's first pass: offers {@code tools} and returns what the model did, its calls checked
     * against the schemas offered.
     *
     * @throws ModelOutputInvalidException for a call of a tool not offered, or arguments that are not
     *     JSON or break the tool's schema
     */
    public static ToolChoice chooseTools(StepScope step, Model model, Prompt prompt, List<ToolDefinition> tools) {
        Map<String, JsonSchemas.Compiled> offered = offered(tools);
        StepFacts.prompt(step, prompt);
        ModelCalls.Outcome outcome =
                ModelCalls.call(step, model, ModelCalls.request(model, prompt, null, tools), false);
        StepFacts.call(step, model, outcome);
        AiMessage message = outcome.response().aiMessage();
        if (!message.hasToolExecutionRequests()) {
            return new ToolChoice.Answer(message.text() == null ? "" : message.text());
        }
        List<ToolCall> calls = new ArrayList<>();
        for (int i = 0; i < message.toolExecutionRequests().size(); i++) {
            calls.add(ToolCall.checked(
                    "run '" + step.runId() + "'",
                    offered,
                    i,
                    message.toolExecutionRequests().get(i)));
        }
        return new ToolChoice.Calls(calls);
    }

    /**
     * Seed 004's second pass: the conversation of the first ({@code prompt}, the model's {@code
     * calls}) with each call's result, in order, and the model's answer in text. {@code tools} are
     * offered again, as providers require when the conversation holds tool calls; a call the model
     * makes now is not followed (its text, if any, is the answer).
     */
    public static String answerWithToolResults(
            StepScope step,
            Model model,
            Prompt prompt,
            List<ToolDefinition> tools,
            ToolChoice.Calls calls,
            List<JsonNode> results) {
        Objects.requireNonNull(results, "results");
        if (results.size() != calls.calls().size()) {
            throw new IllegalArgumentException(
                    "one result per call: " + calls.calls().size() + " calls, " + results.size() + " results");
        }
        List<ChatMessage> messages = new ArrayList<>(ModelCalls.messages(model, prompt, null));
        messages.add(
                AiMessage.from(calls.calls().stream().map(ToolCall::request).toList()));
        for (int i = 0; i < results.size(); i++) {
            messages.add(ToolExecutionResultMessage.from(calls.calls().get(i).request(), Json.write(results.get(i))));
        }
        ModelCalls.Outcome outcome =
                ModelCalls.call(step, model, ModelCalls.request(model, messages, null, tools), false);
        StepFacts.call(step, model, outcome);
        return StructuredOutput.text(outcome);
    }

    /**
     * Seed 004's second pass with structured output: the conversation of the first ({@code prompt}, the
     * model's {@code calls}, each call's result in order) and the model's answer as JSON valid against
     * {@code schema} (a strict response format where the provider takes one; a reply that is not valid is
     * sent back once with the problem). {@code tools} are offered again, as providers require when the
     * conversation holds tool calls, but a call the model makes now is never followed: it comes back as
     * {@link SecondPass.ToolsRequested}, for the caller to refuse rather than drop.
     *
     * @throws ModelOutputInvalidException naming the bad path when the second reply fails its schema too
     */
    public static SecondPass secondPass(
            StepScope step,
            Model model,
            Prompt prompt,
            List<ToolDefinition> tools,
            ToolChoice.Calls calls,
            List<JsonNode> results,
            JsonNode schema) {
        Objects.requireNonNull(results, "results");
        if (results.size() != calls.calls().size()) {
            throw new IllegalArgumentException(
                    "one result per call: " + calls.calls().size() + " calls, " + results.size() + " results");
        }
        JsonSchemas.Compiled compiled = JsonSchemas.compile(schema);
        List<ChatMessage> messages = new ArrayList<>(ModelCalls.messages(model, prompt, compiled));
        messages.add(
                AiMessage.from(calls.calls().stream().map(ToolCall::request).toList()));
        for (int i = 0; i < results.size(); i++) {
            messages.add(ToolExecutionResultMessage.from(calls.calls().get(i).request(), Json.write(results.get(i))));
        }
        StepFacts.prompt(step, prompt);
        ModelCalls.Outcome outcome =
                ModelCalls.call(step, model, ModelCalls.request(model, messages, compiled, tools), false);
        StepFacts.call(step, model, outcome);
        AiMessage first = outcome.response().aiMessage();
        if (first.hasToolExecutionRequests()) {
            return requested(first);
        }
        String reply = first.text() == null ? "" : first.text();
        Optional<Problem> problem = problem(reply, compiled);
        if (problem.isEmpty()) {
            return new SecondPass.Answer(
                    dev.weft.llm.internal.JsonExtraction.extract(reply).orElseThrow());
        }
        ModelCalls.Outcome again = ModelCalls.call(
                step,
                model,
                ModelCalls.request(
                        model, ModelCalls.repair(messages, reply, problem.get().message()), compiled, tools),
                false);
        StepFacts.call(
                step,
                model,
                outcome.tokens().plus(again.tokens()),
                outcome.latency().plus(again.latency()),
                outcome.attempts() + again.attempts());
        AiMessage second = again.response().aiMessage();
        if (second.hasToolExecutionRequests()) {
            return requested(second);
        }
        String repaired = second.text() == null ? "" : second.text();
        Optional<Problem> still = problem(repaired, compiled);
        if (still.isPresent()) {
            throw new ModelOutputInvalidException(
                    still.get().pointer(),
                    "run '" + step.runId() + "': the model's second-pass reply "
                            + still.get().message() + " (asked once more with the error; the second reply failed too)");
        }
        return new SecondPass.Answer(
                dev.weft.llm.internal.JsonExtraction.extract(repaired).orElseThrow());
    }

    private static SecondPass.ToolsRequested requested(AiMessage message) {
        return new SecondPass.ToolsRequested(message.toolExecutionRequests().stream()
                .map(dev.langchain4j.agent.tool.ToolExecutionRequest::name)
                .toList());
    }

    /** Where a reply fails its schema, and how. */
    private record Problem(String pointer, String message) {}

    /** What is wrong with {@code reply} as JSON valid against {@code schema}, if anything. */
    private static Optional<Problem> problem(String reply, JsonSchemas.Compiled schema) {
        Optional<JsonNode> json = dev.weft.llm.internal.JsonExtraction.extract(reply);
        if (json.isEmpty()) {
            return Optional.of(new Problem("/", "holds no JSON"));
        }
        List<JsonSchemas.Violation> violations = schema.validate(json.get());
        if (violations.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Problem(violations.get(0).pointer(), "breaks the schema at " + violations.get(0)));
    }

    private static Map<String, JsonSchemas.Compiled> offered(List<ToolDefinition> tools) {
        Map<String, JsonSchemas.Compiled> offered = new LinkedHashMap<>();
        for (ToolDefinition tool : tools) {
            if (offered.put(tool.name(), JsonSchemas.compile(tool.parameters())) != null) {
                throw new IllegalArgumentException("tool '" + tool.name() + "' is offered twice");
            }
        }
        if (offered.isEmpty()) {
            throw new IllegalArgumentException("offer at least one tool");
        }
        return offered;
    }
}
