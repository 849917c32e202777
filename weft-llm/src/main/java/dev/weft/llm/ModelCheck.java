package dev.weft.llm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.weft.core.Json;
import dev.weft.core.RunError;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.llm.internal.ProviderErrors;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One round trip to the configured model, to say whether it works: the reply, latency and tokens,
 * or the exact reason it failed. No retries, so a failure is reported as it happened.
 */
public final class ModelCheck {
    /** What the check asks. */
    public static final String QUESTION = "Reply with the single word: pong";

    /** The offline rule that answers the check's question, so the default configuration passes it. */
    public static final OfflineModel.Rule PING =
            OfflineModel.Rule.when(request -> QUESTION.equals(OfflineModel.lastUserText(request)), "pong");

    private ModelCheck() {}

    /** What the check found. */
    public record Result(
            ModelConfig config,
            boolean ok,
            Duration latency,
            Tokens tokens,
            Optional<String> reply,
            Optional<RunError> error) {
        public Result {
            Objects.requireNonNull(config, "config");
            Objects.requireNonNull(latency, "latency");
            Objects.requireNonNull(tokens, "tokens");
            Objects.requireNonNull(reply, "reply");
            Objects.requireNonNull(error, "error");
        }

        /**
         * {@code {"provider", "model", "baseUrl", "ok", "latencyMs", "tokens": {"input", "output",
         * "cached"}, "error": {"code", "message"} | null}}.
         */
        public ObjectNode toJson() {
            ObjectNode json = Json.object();
            json.put("provider", config.provider().id());
            json.put("model", config.model());
            if (config.baseUrl().isPresent()) {
                json.put("baseUrl", config.baseUrl().get());
            } else {
                json.putNull("baseUrl");
            }
            json.put("ok", ok);
            json.put("latencyMs", latency.toMillis());
            json.set("tokens", tokens.toJson());
            if (error.isPresent()) {
                ObjectNode e = json.putObject("error");
                e.put("code", error.get().code().name());
                e.put("message", error.get().message());
            } else {
                json.putNull("error");
            }
            return json;
        }
    }

    /** Asks {@code model} (built from {@code config}) {@link #QUESTION} once. */
    public static Result run(ModelConfig config, Model model, TimeSource time) {
        ChatRequest request =
                ChatRequest.builder().messages(UserMessage.from(QUESTION)).build();
        Instant started = time.now();
        try {
            ChatResponse response = model.chatModel().chat(request);
            Duration latency = Duration.between(started, time.now());
            String text = response.aiMessage().text();
            return new Result(
                    config,
                    true,
                    latency,
                    Tokens.of(response.tokenUsage()),
                    Optional.ofNullable(text),
                    Optional.empty());
        } catch (RuntimeException e) {
            Duration latency = Duration.between(started, time.now());
            WeftException failure = ProviderErrors.classify(e, model.provider(), model.label(), time.now());
            return new Result(config, false, latency, Tokens.NONE, Optional.empty(), Optional.of(failure.toError()));
        }
    }
}
