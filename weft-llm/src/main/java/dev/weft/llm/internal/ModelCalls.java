package dev.weft.llm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.DefaultChatRequestParameters;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.StepScope;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.llm.Model;
import dev.weft.llm.ModelTransientException;
import dev.weft.llm.Prompt;
import dev.weft.llm.Tokens;
import dev.weft.llm.ToolDefinition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Builds chat requests from prompts, and makes model calls for a step: streaming token deltas as
 * {@code assistant.delta} events, and retrying transient failures under the model's retry policy,
 * waiting at least as long as the provider's {@code Retry-After}. Stateless.
 */
public final class ModelCalls {
    /**
     * The event a streamed token delta is emitted as: {@code {"text": delta, "source": "model"}} (the
     * source tells a model's words from the plan runtime's own {@code assistant.delta} events).
     */
    public static final String DELTA_EVENT = "assistant.delta";
    /** The {@code source} of a model's token delta. */
    public static final String DELTA_SOURCE = "model";
    /**
     * The event emitted once a call answered: {@code {"provider", "model", "inputTokens",
     * "outputTokens", "attempts", "latencyMs"}} (what tracing makes a model-call span of).
     */
    public static final String CALLED_EVENT = "model.called";
    /** The event emitted before a retry: {@code {"attempt", "delayMs", "error"}}. */
    public static final String RETRY_EVENT = "model.retrying";

    private ModelCalls() {}

    /** A finished call: the response, the tokens it used, how many attempts it took and how long. */
    public record Outcome(ChatResponse response, Tokens tokens, int attempts, Duration latency) {}

    /**
     * The request for {@code prompt}: the system message first (with the schema appended when the
     * model cannot take it as a response format), the user message last; the schema as a strict
     * response format where the model supports one; {@code tools} offered.
     */
    public static ChatRequest request(
            Model model, Prompt prompt, JsonSchemas.@Nullable Compiled schema, List<ToolDefinition> tools) {
        return request(model, messages(model, prompt, schema), schema, tools);
    }

    /** The conversation {@link #request} sends, for a repair to continue. */
    public static List<ChatMessage> messages(Model model, Prompt prompt, JsonSchemas.@Nullable Compiled schema) {
        List<ChatMessage> messages = new ArrayList<>();
        String system = prompt.system();
        if (schema != null && !model.supportsJsonSchema()) {
            system = (system.isBlank() ? "" : system + "\n\n")
                    + "Reply with only a JSON value, without prose or code fences, that matches this JSON Schema:\n"
                    + Json.write(schema.source());
        }
        if (!system.isBlank()) {
            messages.add(SystemMessage.from(system));
        }
        messages.add(UserMessage.from(prompt.user().isBlank() ? "(no message)" : prompt.user()));
        return messages;
    }

    /** A request for {@code messages} with the schema's response format and the tools. */
    public static ChatRequest request(
            Model model,
            List<ChatMessage> messages,
            JsonSchemas.@Nullable Compiled schema,
            List<ToolDefinition> tools) {
        DefaultChatRequestParameters.Builder<?> parameters = DefaultChatRequestParameters.builder();
        if (schema != null && model.supportsJsonSchema()) {
            parameters.responseFormat(ResponseFormat.builder()
                    .type(ResponseFormatType.JSON)
                    .jsonSchema(JsonSchema.builder()
                            .name("output")
                            .rootElement(JsonRawSchema.from(Json.write(schema.source())))
                            .build())
                    .build());
        }
        if (!tools.isEmpty()) {
            parameters.toolSpecifications(
                    tools.stream().map(ModelCalls::specification).toList());
        }
        return ChatRequest.builder()
                .messages(messages)
                .parameters(parameters.build())
                .build();
    }

    /** A repair: the first conversation, the model's reply, and what was wrong with it. */
    public static List<ChatMessage> repair(List<ChatMessage> messages, String reply, String problem) {
        List<ChatMessage> repaired = new ArrayList<>(messages);
        repaired.add(AiMessage.from(reply.isEmpty() ? "(empty reply)" : reply));
        repaired.add(UserMessage.from("Your reply could not be used: " + problem
                + ". Reply again with only the corrected JSON, without prose or code fences."));
        return repaired;
    }

    public static ToolSpecification specification(ToolDefinition tool) {
        JsonNode schema = tool.parameters();
        JsonObjectSchema.Builder parameters = JsonObjectSchema.builder();
        if (schema.path("description").isTextual()) {
            parameters.description(schema.path("description").asText());
        }
        for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
            parameters.addProperty(property.getKey(), JsonRawSchema.from(Json.write(property.getValue())));
        }
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(name -> required.add(name.asText()));
        parameters.required(required);
        if (schema.path("additionalProperties").isBoolean()) {
            parameters.additionalProperties(schema.path("additionalProperties").asBoolean());
        }
        return ToolSpecification.builder()
                .name(tool.name())
                .description(tool.description())
                .parameters(parameters.build())
                .build();
    }

    /**
     * Makes the call for a step, retrying transient failures: the wait before each retry is the
     * policy's delay or the provider's {@code Retry-After}, whichever is longer, slept through the
     * runner's time source. With {@code stream} and a streaming model, each token delta is emitted
     * as {@value #DELTA_EVENT}; without a streaming model the whole reply is emitted as one delta.
     *
     * @throws WeftException the classified failure once the policy gives up (or at once when it is
     *     not transient)
     */
    public static Outcome call(StepScope context, Model model, ChatRequest request, boolean stream) {
        TimeSource time = context.time();
        Instant started = time.now();
        for (int attempt = 1; ; attempt++) {
            try {
                ChatResponse response = stream
                        ? streamed(context, model, request)
                        : model.chatModel().chat(request);
                Outcome outcome = new Outcome(
                        response, Tokens.of(response.tokenUsage()), attempt, Duration.between(started, time.now()));
                ObjectNode called = Json.object();
                called.put("provider", model.provider().name().toLowerCase(java.util.Locale.ROOT));
                called.put("model", model.name());
                outcome.tokens().input().ifPresent(n -> called.put("inputTokens", n));
                outcome.tokens().output().ifPresent(n -> called.put("outputTokens", n));
                called.put("attempts", attempt);
                called.put("latencyMs", outcome.latency().toMillis());
                context.emit(CALLED_EVENT, called);
                return outcome;
            } catch (RuntimeException e) {
                WeftException failure = ProviderErrors.classify(e, model.provider(), model.label(), time.now());
                if (!model.retry().shouldRetry(attempt, failure)) {
                    throw failure;
                }
                Duration wait = model.retry().delayAfter(attempt, model.jitter());
                if (failure instanceof ModelTransientException transientFailure
                        && transientFailure.retryAfter().isPresent()
                        && transientFailure.retryAfter().get().compareTo(wait) > 0) {
                    wait = transientFailure.retryAfter().get();
                }
                ObjectNode data = Json.object();
                data.put("attempt", attempt);
                data.put("delayMs", wait.toMillis());
                data.put("error", failure.getMessage());
                context.emit(RETRY_EVENT, data);
                try {
                    time.sleep(wait);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new WeftException(
                            ErrorCode.E_CANCELLED, "interrupted while waiting to call " + model.label());
                }
            }
        }
    }

    private sealed interface Signal {
        record Delta(String text) implements Signal {}

        record Done(ChatResponse response) implements Signal {}

        record Failed(Throwable error) implements Signal {}
    }

    /** Streams on the provider's threads; deltas are handed to this thread, which emits them. */
    private static ChatResponse streamed(StepScope context, Model model, ChatRequest request) {
        Optional<dev.langchain4j.model.chat.StreamingChatModel> streaming = model.streamingChatModel();
        if (streaming.isEmpty()) {
            ChatResponse response = model.chatModel().chat(request);
            String text = response.aiMessage().text();
            if (text != null && !text.isEmpty()) {
                emitDelta(context, text);
            }
            return response;
        }
        LinkedBlockingQueue<Signal> signals = new LinkedBlockingQueue<>();
        streaming.get().chat(request, new StreamingChatResponseHandler() {
            @Override
            public void onPartialResponse(String partialResponse) {
                signals.add(new Signal.Delta(partialResponse));
            }

            @Override
            public void onCompleteResponse(ChatResponse completeResponse) {
                signals.add(new Signal.Done(completeResponse));
            }

            @Override
            public void onError(Throwable error) {
                signals.add(new Signal.Failed(error));
            }
        });
        while (true) {
            Signal signal;
            try {
                signal = signals.poll(model.timeout().toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new WeftException(ErrorCode.E_CANCELLED, "interrupted while streaming from " + model.label());
            }
            switch (signal) {
                case null ->
                    throw new ModelTransientException(
                            model.label() + " sent nothing for "
                                    + model.timeout().toMillis() + " ms",
                            OptionalInt.empty(),
                            Optional.empty(),
                            null);
                case Signal.Delta delta -> emitDelta(context, delta.text());
                case Signal.Done done -> {
                    return done.response();
                }
                case Signal.Failed failed ->
                    throw failed.error() instanceof RuntimeException runtime
                            ? runtime
                            : new dev.langchain4j.exception.LangChain4jException(failed.error());
            }
        }
    }

    private static void emitDelta(StepScope context, String text) {
        ObjectNode data = Json.object();
        data.put("text", text);
        data.put("source", DELTA_SOURCE);
        context.emit(DELTA_EVENT, data);
    }
}
