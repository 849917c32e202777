package dev.weft.llm;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The model that needs no network and no key: it answers a request with the first of its rules that
 * gives an answer, and is deterministic as long as its rules are. With no rule for a request it fails
 * with {@link ModelUnavailableException} saying how to configure a real model. Rules are supplied by
 * the caller (an assistant's offline planner and resolvers). Thread-safe when its rules are.
 */
public final class OfflineModel implements ChatModel {
    /** What the error says when no rule answers. */
    public static final String NO_RULE_MESSAGE = "the offline model has no rule for this request; set"
            + " WEFT_MODEL=openai:gpt-4o-mini and OPENAI_API_KEY (or WEFT_MODEL=anthropic:… and"
            + " ANTHROPIC_API_KEY, or WEFT_MODEL_BASE_URL for an OpenAI-compatible server)";

    /** One way of answering: a full response for the requests it covers, empty for the rest. */
    @FunctionalInterface
    public interface Rule {
        Optional<ChatResponse> answer(ChatRequest request);

        /** A rule whose answer is the text {@code reply} gives; empty where it gives none. */
        static Rule text(Function<ChatRequest, Optional<String>> reply) {
            Objects.requireNonNull(reply, "reply");
            return request -> reply.apply(request).map(OfflineModel::response);
        }

        /** Answers {@code text} to every request {@code when} accepts. */
        static Rule when(Predicate<ChatRequest> when, String text) {
            Objects.requireNonNull(when, "when");
            Objects.requireNonNull(text, "text");
            return request -> when.test(request) ? Optional.of(response(text)) : Optional.empty();
        }
    }

    private final List<Rule> rules;

    private OfflineModel(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** An offline model without rules: every call fails with {@link #NO_RULE_MESSAGE}. */
    public static OfflineModel empty() {
        return new OfflineModel(List.of());
    }

    public static Builder builder() {
        return new Builder();
    }

    /** This model's rules followed by {@code more}. */
    public OfflineModel with(Rule... more) {
        List<Rule> all = new ArrayList<>(rules);
        for (Rule rule : more) {
            all.add(Objects.requireNonNull(rule, "rule"));
        }
        return new OfflineModel(all);
    }

    public List<Rule> rules() {
        return rules;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        for (Rule rule : rules) {
            Optional<ChatResponse> answer = rule.answer(request);
            if (answer.isPresent()) {
                return answer.get();
            }
        }
        throw new ModelUnavailableException(NO_RULE_MESSAGE);
    }

    /** A response carrying {@code text}, with no tokens spent. */
    public static ChatResponse response(String text) {
        return response(AiMessage.from(text));
    }

    /** A response carrying {@code message} (text or tool calls), with no tokens spent. */
    public static ChatResponse response(AiMessage message) {
        return ChatResponse.builder()
                .aiMessage(message)
                .modelName("offline")
                .tokenUsage(new TokenUsage(0, 0))
                .finishReason(message.hasToolExecutionRequests() ? FinishReason.TOOL_EXECUTION : FinishReason.STOP)
                .build();
    }

    /** The text of the request's last user message ({@code ""} when there is none): what rules usually match. */
    public static String lastUserText(ChatRequest request) {
        List<ChatMessage> messages = request.messages();
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof UserMessage user && user.hasSingleText()) {
                return user.singleText();
            }
        }
        return "";
    }

    /** The text of the request's system message ({@code ""} when there is none). */
    public static String systemText(ChatRequest request) {
        for (ChatMessage message : request.messages()) {
            if (message instanceof SystemMessage system) {
                return system.text();
            }
        }
        return "";
    }

    /** Collects rules, tried in the order they are added. Not thread-safe. */
    public static final class Builder {
        private final List<Rule> rules = new ArrayList<>();

        private Builder() {}

        public Builder rule(Rule rule) {
            rules.add(Objects.requireNonNull(rule, "rule"));
            return this;
        }

        public OfflineModel build() {
            return new OfflineModel(rules);
        }
    }
}
