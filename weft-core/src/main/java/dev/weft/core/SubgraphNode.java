package dev.weft.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * Runs a graph as a child run of the current one. The child shares the runner and its store;
 * cancelling the parent cancels it; an interrupt inside it pauses the parent, and resuming the
 * parent resumes the child with the same value.
 */
final class SubgraphNode implements Node {
    private static final String CHILD_RUN = "childRunId";

    private final java.util.function.Function<NodeContext, Graph> graphFor;

    SubgraphNode(java.util.function.Function<NodeContext, Graph> graphFor) {
        this.graphFor = graphFor;
    }

    @Override
    public NodeResult execute(NodeContext context) {
        if (!(context instanceof StepContext step)) {
            throw new IllegalStateException("a subgraph node runs only inside a Runner");
        }
        Runner runner = step.runner();
        Graph graph = graphFor.apply(context);
        Optional<String> childRun =
                context.interruptPayload().map(p -> p.path(CHILD_RUN).asText(""));
        RunResult result;
        if (childRun.isPresent()
                && !childRun.get().isEmpty()
                && context.resumeValue().isPresent()) {
            result = runner.resume(graph, childRun.get(), context.resumeValue().get());
        } else {
            RunRequest.Builder builder = RunRequest.builder()
                    .runId(context.runId() + "/" + context.stepOrder() + "." + context.attempt())
                    .input(context.input());
            // A child run is its parent's user's too.
            context.user().ifPresent(builder::user);
            RunRequest request = builder.build();
            result = runner.newRun(graph, request, Optional.of(context.runId())).drive();
        }
        return switch (result.status()) {
            case COMPLETED -> NodeResult.output(result.output());
            case WAITING -> {
                ObjectNode payload = Json.object();
                payload.put(CHILD_RUN, result.runId());
                payload.set("interrupts", Json.mapper().valueToTree(result.interrupts()));
                yield NodeResult.interrupt(payload);
            }
            case FAILED, CANCELLED, PENDING, RUNNING -> {
                RunError error =
                        result.error().orElse(new RunError(ErrorCode.E_NODE_FAILED, "ended " + result.status()));
                throw new WeftException(
                        error.code(), "subgraph '" + graph.id() + "' (run " + result.runId() + "): " + error.message());
            }
        };
    }
}
