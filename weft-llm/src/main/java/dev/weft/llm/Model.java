package dev.weft.llm;

import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.anthropic.AnthropicStreamingChatModel;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.weft.core.RetryPolicy;
import dev.weft.llm.internal.ProviderHttpClient;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * A model as Weft's nodes call it: the provider and model name, the LangChain4j {@link ChatModel}
 * (and {@link StreamingChatModel}, where the provider streams), the retry policy for transient
 * failures, the jitter source and the timeout. LangChain4j's own retries are off, so the policy here
 * is the only one. Immutable and thread-safe; the {@code with…} methods return copies.
 */
public final class Model {
    /** Three attempts, waiting 1 s then 2 s (less up to 20 % jitter), or longer when the provider says. */
    public static final RetryPolicy DEFAULT_RETRY =
            RetryPolicy.attempts(3).withBackoff(Duration.ofSeconds(1), Duration.ofSeconds(30), 2.0);

    /** The output limit Anthropic requires on every request. */
    public static final int ANTHROPIC_MAX_TOKENS = 4096;

    private static final RandomGenerator THREAD_LOCAL = new RandomGenerator() {
        @Override
        public long nextLong() {
            return ThreadLocalRandom.current().nextLong();
        }

        @Override
        public double nextDouble() {
            return ThreadLocalRandom.current().nextDouble();
        }
    };

    private final Provider provider;
    private final String name;
    private final ChatModel chat;
    private final @Nullable StreamingChatModel streaming;
    private final RetryPolicy retry;
    private final RandomGenerator jitter;
    private final Duration timeout;

    private Model(
            Provider provider,
            String name,
            ChatModel chat,
            @Nullable StreamingChatModel streaming,
            RetryPolicy retry,
            RandomGenerator jitter,
            Duration timeout) {
        this.provider = provider;
        this.name = name;
        this.chat = chat;
        this.streaming = streaming;
        this.retry = retry;
        this.jitter = jitter;
        this.timeout = timeout;
    }

    /** The model {@code config} names; offline without rules (see {@link #create(ModelConfig, OfflineModel)}). */
    public static Model create(ModelConfig config) {
        return create(config, OfflineModel.empty());
    }

    /**
     * Builds the LangChain4j clients for {@code config}: OpenAI (strict JSON-Schema response format,
     * no key sent when none is set), Anthropic (the system prompt marked for caching), or {@code
     * offline} answering with {@code offline}'s rules.
     */
    public static Model create(ModelConfig config, OfflineModel offline) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(offline, "offline");
        String baseUrl = config.baseUrl().orElse(null);
        String key = config.apiKey().orElse(null);
        return switch (config.provider()) {
            case OPENAI ->
                new Model(
                        Provider.OPENAI,
                        config.model(),
                        OpenAiChatModel.builder()
                                .httpClientBuilder(ProviderHttpClient.builder())
                                .baseUrl(baseUrl)
                                .apiKey(key)
                                .modelName(config.model())
                                .timeout(config.timeout())
                                .maxRetries(0)
                                .strictJsonSchema(true)
                                .supportedCapabilities(Capability.RESPONSE_FORMAT_JSON_SCHEMA)
                                .build(),
                        OpenAiStreamingChatModel.builder()
                                .httpClientBuilder(ProviderHttpClient.builder())
                                .baseUrl(baseUrl)
                                .apiKey(key)
                                .modelName(config.model())
                                .timeout(config.timeout())
                                .strictJsonSchema(true)
                                .build(),
                        DEFAULT_RETRY,
                        THREAD_LOCAL,
                        config.timeout());
            case ANTHROPIC ->
                new Model(
                        Provider.ANTHROPIC,
                        config.model(),
                        AnthropicChatModel.builder()
                                .httpClientBuilder(ProviderHttpClient.builder())
                                .baseUrl(baseUrl)
                                .apiKey(key)
                                .modelName(config.model())
                                .maxTokens(ANTHROPIC_MAX_TOKENS)
                                .timeout(config.timeout())
                                .maxRetries(0)
                                .cacheSystemMessages(true)
                                .build(),
                        AnthropicStreamingChatModel.builder()
                                .httpClientBuilder(ProviderHttpClient.builder())
                                .baseUrl(baseUrl)
                                .apiKey(key)
                                .modelName(config.model())
                                .maxTokens(ANTHROPIC_MAX_TOKENS)
                                .timeout(config.timeout())
                                .cacheSystemMessages(true)
                                .build(),
                        DEFAULT_RETRY,
                        THREAD_LOCAL,
                        config.timeout());
            case OFFLINE ->
                new Model(
                        Provider.OFFLINE, config.model(), offline, null, DEFAULT_RETRY, THREAD_LOCAL, config.timeout());
        };
    }

    /** The offline model answering with {@code offline}'s rules. */
    public static Model offline(OfflineModel offline) {
        return create(ModelConfig.offline(), offline);
    }

    /** A model around any LangChain4j {@link ChatModel} (a provider module of your own, a test double). */
    public static Model of(Provider provider, String name, ChatModel chat) {
        return new Model(
                Objects.requireNonNull(provider, "provider"),
                Objects.requireNonNull(name, "name"),
                Objects.requireNonNull(chat, "chat"),
                null,
                DEFAULT_RETRY,
                THREAD_LOCAL,
                ModelConfig.DEFAULT_TIMEOUT);
    }

    public Model withStreaming(StreamingChatModel streaming) {
        return new Model(provider, name, chat, Objects.requireNonNull(streaming, "streaming"), retry, jitter, timeout);
    }

    /** Calls without streaming, even where the provider streams. */
    public Model withoutStreaming() {
        return new Model(provider, name, chat, null, retry, jitter, timeout);
    }

    /** How transient failures (429, 5xx, timeouts, unreachable) are retried; {@link #DEFAULT_RETRY} unless set. */
    public Model withRetry(RetryPolicy retry) {
        return new Model(provider, name, chat, streaming, Objects.requireNonNull(retry, "retry"), jitter, timeout);
    }

    /** The source of retry jitter; must be thread-safe. */
    public Model withJitter(RandomGenerator jitter) {
        return new Model(provider, name, chat, streaming, retry, Objects.requireNonNull(jitter, "jitter"), timeout);
    }

    /** How long a streamed reply may go without a new token before the call counts as timed out. */
    public Model withTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("model timeout must be positive, was " + timeout);
        }
        return new Model(provider, name, chat, streaming, retry, jitter, timeout);
    }

    public Provider provider() {
        return provider;
    }

    public String name() {
        return name;
    }

    /** {@code provider:model}. */
    public String label() {
        return provider.id() + ":" + name;
    }

    public ChatModel chatModel() {
        return chat;
    }

    public Optional<StreamingChatModel> streamingChatModel() {
        return Optional.ofNullable(streaming);
    }

    public RetryPolicy retry() {
        return retry;
    }

    public RandomGenerator jitter() {
        return jitter;
    }

    public Duration timeout() {
        return timeout;
    }

    /**
     * Whether a JSON Schema is sent as the response format (OpenAI's strict {@code json_schema}; the
     * offline rules see it on the request). Otherwise the schema is put in the system prompt and the
     * reply parsed (Anthropic).
     */
    public boolean supportsJsonSchema() {
        return provider != Provider.ANTHROPIC;
    }

    @Override
    public String toString() {
        return "Model[" + label() + (streaming == null ? "" : ", streaming") + "]";
    }
}
