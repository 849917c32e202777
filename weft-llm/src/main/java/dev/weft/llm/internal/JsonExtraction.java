package dev.weft.llm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the JSON in a model's reply: the whole reply, else a fenced {@code ```json} block, else the
 * first balanced object or array inside the prose. Stateless.
 */
public final class JsonExtraction {
    private static final Pattern FENCE = Pattern.compile("```(?:json|JSON)?\\s*\\n?(.*?)```", Pattern.DOTALL);

    private JsonExtraction() {}

    public static Optional<JsonNode> extract(String reply) {
        String text = reply.strip();
        if (text.isEmpty()) {
            return Optional.empty();
        }
        Optional<JsonNode> whole = parse(text);
        if (whole.isPresent() && (whole.get().isContainerNode() || !text.contains(" "))) {
            return whole;
        }
        Matcher fence = FENCE.matcher(text);
        while (fence.find()) {
            Optional<JsonNode> fenced = parse(fence.group(1).strip());
            if (fenced.isPresent()) {
                return fenced;
            }
        }
        for (int start = 0; start < text.length(); start++) {
            char c = text.charAt(start);
            if (c != '{' && c != '[') {
                continue;
            }
            int end = balancedEnd(text, start);
            if (end > start) {
                Optional<JsonNode> found = parse(text.substring(start, end + 1));
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return whole;
    }

    private static Optional<JsonNode> parse(String text) {
        try {
            return Optional.of(Json.mapper().readTree(text));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return Optional.empty();
        }
    }

    /** The index of the bracket closing the one at {@code start}, skipping strings; -1 if unbalanced. */
    private static int balancedEnd(String text, int start) {
        int depth = 0;
        boolean inString = false;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
                continue;
            }
            switch (c) {
                case '"' -> inString = true;
                case '{', '[' -> depth++;
                case '}', ']' -> {
                    depth--;
                    if (depth == 0) {
                        return i;
                    }
                }
                default -> {}
            }
        }
        return -1;
    }
}
