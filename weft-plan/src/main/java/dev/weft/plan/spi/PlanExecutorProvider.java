package dev.weft.plan.spi;

import dev.weft.core.spi.RunStore;
import dev.weft.plan.PlanExecutor;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Makes the plan executor of one name for a process that did not start its runs: the {@code weft}
 * command resuming, cancelling or recovering a plan run, or a server recovering runs whose process
 * died. An assistant registers one through {@link ServiceLoader} ({@code
 * META-INF/services/dev.weft.plan.spi.PlanExecutorProvider}); the executor it makes must have the same
 * {@link PlanExecutor.Builder#name name}, resolvers and tools as the one that started the runs.
 */
public interface PlanExecutorProvider {
    /** The executor name this provider answers for, as stored in its runs' source. */
    String name();

    /** An executor over {@code store}, the store the runs live in (an assistant keeps its own data there). */
    PlanExecutor executor(RunStore store);

    /** The provider for executor {@code name} on the class path, if there is one. */
    static Optional<PlanExecutorProvider> find(String name) {
        for (PlanExecutorProvider provider : ServiceLoader.load(PlanExecutorProvider.class)) {
            if (provider.name().equals(name)) {
                return Optional.of(provider);
            }
        }
        return Optional.empty();
    }
}
