package dev.weft.server;

import dev.weft.assistant.Assistants;
import dev.weft.core.Graph;
import dev.weft.core.NotFoundException;
import dev.weft.core.Run;
import dev.weft.core.RunResult;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.workflow.NodeTypes;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * What the routes work with: the store, the runner that drives runs, every assistant by name, how to rebuild a run's
 * graph, the node types workflows may use, and the runs started without waiting for them.
 */
record Backend(
        RunStore store,
        Runner runner,
        Assistants assistants,
        Function<Run, Optional<Graph>> graphs,
        EventHub hub,
        AtomicBoolean stopping,
        NodeTypes nodeTypes,
        Set<CompletableFuture<RunResult>> detached) {

    /**
     * The run {@code runId} if {@code caller} may see it.
     *
     * @throws NotFoundException for a run that does not exist or is another user's: the two are not told apart
     */
    Run visibleRun(Caller caller, String runId) {
        return store.findRun(runId)
                .filter(caller::sees)
                .orElseThrow(() -> new NotFoundException("no run '" + runId + "'"));
    }
}
