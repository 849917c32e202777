package dev.weft.llm;

import dev.weft.core.StepScope;
import dev.weft.llm.internal.ModelCalls;
import java.time.Duration;

/** What model steps record: the resolved prompt, the model, tokens, latency and attempts (seed 003's step log). */
final class StepFacts {
    private StepFacts() {}

    static void prompt(StepScope context, Prompt prompt) {
        context.record("prompt", prompt.toJson());
    }

    static void call(StepScope context, Model model, Tokens tokens, Duration latency, int attempts) {
        context.record("model", com.fasterxml.jackson.databind.node.TextNode.valueOf(model.label()));
        context.record("tokens", tokens.toJson());
        context.record("latencyMs", com.fasterxml.jackson.databind.node.LongNode.valueOf(latency.toMillis()));
        context.record("attempts", com.fasterxml.jackson.databind.node.IntNode.valueOf(attempts));
    }

    static void call(StepScope context, Model model, ModelCalls.Outcome outcome) {
        call(context, model, outcome.tokens(), outcome.latency(), outcome.attempts());
    }
}
