package dev.weft.llm;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** Where a model is reached: OpenAI (and any OpenAI-compatible server), Anthropic, or the offline rules. */
public enum Provider {
    /** OpenAI's chat-completions API, or any server that speaks it (Ollama, vLLM, llama.cpp) at a base URL. */
    OPENAI("openai", Optional.of("OPENAI_API_KEY")),
    /** Anthropic's messages API. */
    ANTHROPIC("anthropic", Optional.of("ANTHROPIC_API_KEY")),
    /** Deterministic answers from rules the caller supplies; no network, no key. */
    OFFLINE("offline", Optional.empty());

    private final String id;
    private final Optional<String> keyVariable;

    Provider(String id, Optional<String> keyVariable) {
        this.id = id;
        this.keyVariable = keyVariable;
    }

    /** The name used in {@code provider:model}. */
    public String id() {
        return id;
    }

    /** The environment variable that holds the provider's API key, if it takes one. */
    public Optional<String> keyVariable() {
        return keyVariable;
    }

    /**
     * Whether a call needs an API key: always for Anthropic; for OpenAI only at OpenAI's own endpoint
     * (a local OpenAI-compatible server at a base URL usually takes none).
     */
    public boolean requiresKey(Optional<String> baseUrl) {
        return switch (this) {
            case OPENAI -> baseUrl.isEmpty();
            case ANTHROPIC -> true;
            case OFFLINE -> false;
        };
    }

    /**
     * The provider named {@code id}.
     *
     * @throws WeftException {@code E_BAD_INPUT} naming the known providers
     */
    public static Provider of(String id) {
        for (Provider provider : values()) {
            if (provider.id.equals(id.toLowerCase(Locale.ROOT))) {
                return provider;
            }
        }
        throw new WeftException(
                ErrorCode.E_BAD_INPUT,
                "unknown model provider '" + id + "' (known: "
                        + Arrays.stream(values()).map(Provider::id).collect(Collectors.joining(", ")) + ")");
    }
}
