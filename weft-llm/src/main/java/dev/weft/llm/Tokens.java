package dev.weft.llm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.model.anthropic.AnthropicTokenUsage;
import dev.langchain4j.model.openai.OpenAiTokenUsage;
import dev.langchain4j.model.output.TokenUsage;
import dev.weft.core.Json;
import java.util.Objects;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * Tokens one or more model calls used, as far as the provider reported them: input, output, and the
 * part of the input served from the provider's prompt cache. Immutable.
 */
public record Tokens(OptionalInt input, OptionalInt output, OptionalInt cached) {
    /** Nothing reported. */
    public static final Tokens NONE = new Tokens(OptionalInt.empty(), OptionalInt.empty(), OptionalInt.empty());

    public Tokens {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(cached, "cached");
    }

    /** What LangChain4j's usage reports: OpenAI's {@code cached_tokens}, Anthropic's cache reads. */
    public static Tokens of(@Nullable TokenUsage usage) {
        if (usage == null) {
            return NONE;
        }
        Integer cached = null;
        if (usage instanceof OpenAiTokenUsage openAi && openAi.inputTokensDetails() != null) {
            cached = openAi.inputTokensDetails().cachedTokens();
        } else if (usage instanceof AnthropicTokenUsage anthropic) {
            cached = anthropic.cacheReadInputTokens();
        }
        return new Tokens(optional(usage.inputTokenCount()), optional(usage.outputTokenCount()), optional(cached));
    }

    /** The sum of both; a count is reported if either reports it. */
    public Tokens plus(Tokens other) {
        return new Tokens(sum(input, other.input), sum(output, other.output), sum(cached, other.cached));
    }

    /** {@code {"input": n, "output": n, "cached": n}}, {@code null} where not reported. */
    public ObjectNode toJson() {
        ObjectNode json = Json.object();
        put(json, "input", input);
        put(json, "output", output);
        put(json, "cached", cached);
        return json;
    }

    private static void put(ObjectNode json, String field, OptionalInt value) {
        if (value.isPresent()) {
            json.put(field, value.getAsInt());
        } else {
            json.putNull(field);
        }
    }

    private static OptionalInt optional(@Nullable Integer value) {
        return value == null ? OptionalInt.empty() : OptionalInt.of(value);
    }

    private static OptionalInt sum(OptionalInt a, OptionalInt b) {
        if (a.isEmpty()) {
            return b;
        }
        return b.isEmpty() ? a : OptionalInt.of(a.getAsInt() + b.getAsInt());
    }
}
