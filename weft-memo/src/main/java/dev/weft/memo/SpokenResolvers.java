package dev.weft.memo;

import dev.weft.llm.StepModels;
import dev.weft.memo.internal.MemoResolvers;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import dev.weft.plan.ResolverRegistry;
import java.util.Optional;
import java.util.Set;

/**
 * Marks the steps whose words are Memo's reply: a step resolved to the chat tool ({@code respond}: a
 * general answer, an answer from memory) is resolved inside {@link StepModels#speaking}, so the model's
 * words a resolver asks for there stream to the user token by token as {@code assistant.delta} events
 * while the run goes on. Other steps' model calls (arguments, lookups) stay the step's own work. The
 * resolvers themselves know nothing of it. Thread-safe.
 */
final class SpokenResolvers {
    private SpokenResolvers() {}

    /** {@code resolvers}, each of those that answer in words resolving such steps as speaking. */
    static ResolverRegistry of(ResolverRegistry resolvers) {
        return resolvers.map(Spoken::new);
    }

    private record Spoken(Resolver inner) implements Resolver {
        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public String capability() {
            return inner.capability();
        }

        @Override
        public Set<String> actions() {
            return inner.actions();
        }

        @Override
        public Optional<String> tool(PlanStep step) {
            return inner.tool(step);
        }

        @Override
        public Optional<dev.weft.plan.StepSlice> slice(PlanStep step) {
            // Forwarded, or the step pipeline would never hold the inner resolver's model to its step.
            return inner.slice(step);
        }

        @Override
        public Resolution resolve(PlanStep step, ResolveContext context) {
            if (inner.tool(step).filter(MemoResolvers.RESPOND::equals).isPresent()) {
                return StepModels.speaking(() -> inner.resolve(step, context));
            }
            return inner.resolve(step, context);
        }
    }
}
