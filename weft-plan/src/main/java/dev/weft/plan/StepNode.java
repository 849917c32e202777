package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.Node;
import dev.weft.core.NodeContext;
import dev.weft.core.NodeResult;
import dev.weft.core.RunError;
import dev.weft.core.WeftException;
import dev.weft.plan.internal.Placeholders;
import dev.weft.plan.internal.Placeholders.Prepared;
import dev.weft.plan.internal.Schemas;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One plan step as a graph node: resolve → prepare → validate → approve → execute → commit (seed
 * 001). It never throws for a failure of the step itself: the outcome says what went wrong, so the
 * rest of the plan runs on. Thread-safe; the state of a step lives in its context and outcome.
 */
final class StepNode implements Node {
    private final PlanExecutor executor;
    private final PlanStep step;
    private final List<String> dependencies;
    private final Set<String> scope;

    StepNode(PlanExecutor executor, PlanStep step, List<String> dependencies, Set<String> scope) {
        this.executor = executor;
        this.step = step;
        this.dependencies = List.copyOf(dependencies);
        this.scope = Set.copyOf(scope);
    }

    @Override
    public NodeResult execute(NodeContext context) {
        JsonNode runInput = context.runInput();
        PlanMode mode = PlanMode.valueOf(runInput.path("mode").asText("AUTO"));
        JsonNode plan = context.outputs().getOrDefault(PlanExecutor.PLAN_NODE, NullNode.getInstance());
        if (!plan.path("approved").asBoolean(true)) {
            return done(StepOutcome.skipped(step.id(), "", NullNode.getInstance(), "the plan was not approved"));
        }
        for (String dependency : dependencies) {
            JsonNode outcome = outcome(context, dependency);
            StepOutcome.Status status = outcome == null
                    ? null
                    : StepOutcome.Status.valueOf(outcome.get("status").asText());
            if (status != StepOutcome.Status.SUCCEEDED && status != StepOutcome.Status.PREVIEWED) {
                return done(StepOutcome.skipped(
                        step.id(),
                        "",
                        NullNode.getInstance(),
                        "step '" + dependency + "' it depends on did not succeed"));
            }
        }
        JsonNode resume = context.resumeValue().orElse(NullNode.getInstance());
        Set<String> approved = new HashSet<>();
        runInput.path("approvedSteps").forEach(id -> approved.add(id.asText()));
        plan.path("approve").forEach(id -> approved.add(id.asText()));
        resume.path("approve").forEach(id -> approved.add(id.asText()));
        Set<String> rejected = new HashSet<>();
        resume.path("reject").forEach(id -> rejected.add(id.asText()));
        ObjectNode answers = Json.object();
        for (JsonNode source : List.of(runInput.path("answers"), plan.path("answers"), resume.path("answers"))) {
            if (source.path(step.id()).isObject()) {
                answers.setAll((ObjectNode) source.get(step.id()));
            }
        }
        PlanExecutor.Limits limits = executor.limits(context);
        if (limits == null) {
            return run(context, mode, answers, approved, rejected);
        }
        try {
            limits.acquire(step.capability());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return done(StepOutcome.failed(
                    step.id(),
                    "",
                    NullNode.getInstance(),
                    new RunError(ErrorCode.E_CANCELLED, "step '" + step.id() + "' was interrupted"),
                    0,
                    0));
        }
        try {
            return run(context, mode, answers, approved, rejected);
        } finally {
            limits.release(step.capability());
        }
    }

    private NodeResult run(
            NodeContext context, PlanMode mode, ObjectNode answers, Set<String> approved, Set<String> rejected) {
        JsonNode payload = context.interruptPayload().orElse(NullNode.getInstance());
        if (payload.path("type").asText().equals("approval") && answers.isEmpty()) {
            return approveAndRun(context, payload, approved, rejected);
        }
        return resolveAndRun(context, mode, answers, approved, rejected);
    }

    private static NodeResult done(StepOutcome outcome) {
        return NodeResult.output(outcome.toJson());
    }

    /** A step's outcome as its node stored it ({@link StepOutcome#toJson}); read in place, not parsed. */
    private static @org.jspecify.annotations.Nullable JsonNode outcome(NodeContext context, String stepId) {
        JsonNode output = context.outputs().get(PlanExecutor.STEP_PREFIX + stepId);
        return output == null || !output.has("status") ? null : output;
    }

    /** Every result a placeholder of this step may read: its dependencies' results, children by their own ids. */
    private Map<String, JsonNode> results(NodeContext context) {
        Map<String, JsonNode> results = new LinkedHashMap<>();
        for (String id : scope) {
            JsonNode outcome = outcome(context, id);
            if (outcome != null) {
                putLeafResults(outcome, results);
            }
        }
        return results;
    }

    private static void putLeafResults(JsonNode outcome, Map<String, JsonNode> results) {
        JsonNode children = outcome.path("children");
        if (children.isEmpty()) {
            JsonNode result = outcome.get("result");
            results.put(outcome.get("stepId").asText(), result == null ? NullNode.getInstance() : result);
        } else {
            children.forEach(child -> putLeafResults(child, results));
        }
    }

    private NodeResult resolveAndRun(
            NodeContext context, PlanMode mode, ObjectNode answers, Set<String> approved, Set<String> rejected) {
        Optional<Resolver> resolver = executor.resolvers().find(step.capability(), step.action());
        if (resolver.isEmpty()) {
            return done(StepOutcome.failed(
                    step.id(),
                    "",
                    NullNode.getInstance(),
                    new RunError(
                            ErrorCode.E_NO_RESOLVER,
                            "step '" + step.id() + "': no resolver for capability '" + step.capability() + "' (action '"
                                    + step.action() + "')"),
                    0,
                    0));
        }
        Map<String, JsonNode> results = results(context);
        Resolution resolution;
        try {
            resolution = resolver.get()
                    .resolve(
                            step,
                            new ResolveContext(
                                    context.runId(), context.runInput().path("input"), results, answers));
        } catch (RuntimeException e) {
            return done(StepOutcome.failed(
                    step.id(),
                    "",
                    NullNode.getInstance(),
                    errorOf("resolver '" + resolver.get().name() + "'", e),
                    0,
                    0));
        }
        return switch (resolution) {
            case Resolution.Clarify clarify -> clarify(context, clarify);
            case Resolution.Execute call -> prepareAndRun(context, mode, call, results, answers, approved, rejected);
        };
    }

    private NodeResult clarify(NodeContext context, Resolution.Clarify clarify) {
        ObjectNode payload = Json.object();
        payload.put("type", "clarify");
        payload.put("stepId", step.id());
        payload.put("question", clarify.question());
        ArrayNode options = payload.putArray("options");
        clarify.options().forEach(options::add);
        context.emit(PlanEvents.CLARIFY_AWAITING, payload);
        return NodeResult.interrupt(payload);
    }

    private NodeResult prepareAndRun(
            NodeContext context,
            PlanMode mode,
            Resolution.Execute call,
            Map<String, JsonNode> results,
            ObjectNode answers,
            Set<String> approved,
            Set<String> rejected) {
        Optional<Tool> found = executor.tools().find(call.functionName());
        if (found.isEmpty()) {
            return done(StepOutcome.failed(
                    step.id(),
                    call.functionName(),
                    call.args(),
                    new RunError(
                            ErrorCode.E_TOOL_FAILED,
                            "step '" + step.id() + "': no tool named '" + call.functionName() + "'"),
                    0,
                    0));
        }
        Tool tool = found.get();
        List<Prepared> prepared;
        try {
            prepared = Placeholders.prepare(step.id(), call.args(), results, scope, answers, mode == PlanMode.PREVIEW);
        } catch (WeftException e) {
            return done(StepOutcome.failed(step.id(), tool.name(), call.args(), e.toError(), 0, 0));
        }
        if (mode == PlanMode.PREVIEW) {
            List<StepOutcome> previews = new ArrayList<>();
            for (Prepared p : prepared) {
                previews.add(new StepOutcome(
                        p.stepId(),
                        StepOutcome.Status.PREVIEWED,
                        tool.name(),
                        p.args(),
                        NullNode.getInstance(),
                        Optional.empty(),
                        Optional.empty(),
                        List.of(),
                        Optional.empty(),
                        Optional.empty(),
                        0,
                        0));
            }
            return done(combine(tool, call.args(), previews));
        }
        if (!tool.lenient()) {
            for (Prepared p : prepared) {
                List<Schemas.Violation> violations = tool.checkInput(p.args());
                if (!violations.isEmpty()) {
                    return done(StepOutcome.failed(
                            p.stepId(),
                            tool.name(),
                            p.args(),
                            new RunError(
                                    ErrorCode.E_ARGS_INVALID,
                                    "step '" + p.stepId() + "': arguments of tool '" + tool.name() + "' are invalid at "
                                            + violations.get(0)
                                            + (violations.size() > 1
                                                    ? " (and " + (violations.size() - 1) + " more: "
                                                            + violations.subList(1, violations.size()) + ")"
                                                    : "")),
                            0,
                            0));
                }
            }
        }
        return gateAndRun(context, tool, call.args(), prepared, approved, rejected);
    }

    private NodeResult approveAndRun(
            NodeContext context, JsonNode payload, Set<String> approved, Set<String> rejected) {
        Optional<Tool> tool = executor.tools().find(payload.path("tool").asText());
        if (tool.isEmpty()) {
            return done(StepOutcome.failed(
                    step.id(),
                    payload.path("tool").asText(),
                    NullNode.getInstance(),
                    new RunError(
                            ErrorCode.E_TOOL_FAILED,
                            "step '" + step.id() + "': no tool named '"
                                    + payload.path("tool").asText() + "'"),
                    0,
                    0));
        }
        List<Prepared> prepared = new ArrayList<>();
        payload.path("prepared")
                .forEach(p -> prepared.add(new Prepared(p.get("stepId").asText(), (ObjectNode) p.get("args"))));
        return gateAndRun(context, tool.get(), payload.path("args"), prepared, approved, rejected);
    }

    /** The approval gate, then the calls. */
    private NodeResult gateAndRun(
            NodeContext context,
            Tool tool,
            JsonNode originalArgs,
            List<Prepared> prepared,
            Set<String> approved,
            Set<String> rejected) {
        if (tool.risk() == Risk.HIGH && !tool.chat()) {
            List<Prepared> waiting = prepared.stream()
                    .filter(p -> !isIn(p.stepId(), approved) && !isIn(p.stepId(), rejected))
                    .toList();
            if (!waiting.isEmpty()) {
                ObjectNode payload = Json.object();
                payload.put("type", "approval");
                payload.put("stepId", step.id());
                payload.put("tool", tool.name());
                payload.set("args", originalArgs);
                ArrayNode steps = payload.putArray("prepared");
                ArrayNode listed = Json.mapper().createArrayNode();
                for (Prepared p : prepared) {
                    ObjectNode entry = steps.addObject();
                    entry.put("stepId", p.stepId());
                    entry.set("args", p.args());
                }
                for (Prepared p : waiting) {
                    ObjectNode entry = listed.addObject();
                    entry.put("stepId", p.stepId());
                    entry.put("tool", tool.name());
                    entry.set("args", p.args());
                }
                ObjectNode event = Json.object();
                event.put("stepId", step.id());
                event.set("steps", listed);
                context.emit(PlanEvents.APPROVAL_AWAITING, event);
                return NodeResult.interrupt(payload);
            }
        }
        List<StepOutcome> outcomes = runAll(context, tool, prepared, rejected);
        return done(combine(tool, originalArgs, outcomes));
    }

    /** Whether {@code stepId} or the plan step it was expanded from is in {@code ids}. */
    private boolean isIn(String stepId, Set<String> ids) {
        return ids.contains(stepId) || ids.contains(step.id());
    }

    private List<StepOutcome> runAll(NodeContext context, Tool tool, List<Prepared> prepared, Set<String> rejected) {
        if (prepared.size() == 1) {
            return List.of(runOne(context, tool, prepared.get(0), rejected));
        }
        List<CompletableFuture<StepOutcome>> futures = new ArrayList<>();
        try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (Prepared p : prepared) {
                futures.add(CompletableFuture.supplyAsync(() -> runOne(context, tool, p, rejected), threads));
            }
        }
        return futures.stream().map(CompletableFuture::join).toList();
    }

    private StepOutcome runOne(NodeContext context, Tool tool, Prepared call, Set<String> rejected) {
        String id = call.stepId();
        if (isIn(id, rejected)) {
            return StepOutcome.skipped(id, tool.name(), call.args(), "rejected");
        }
        if (!tool.chat()) {
            ObjectNode delta = Json.object();
            delta.put("stepId", id);
            delta.put("text", inputTable(tool, call.args()));
            context.emit(PlanEvents.ASSISTANT_DELTA, delta);
        }
        ObjectNode called = Json.object();
        called.put("stepId", id);
        called.put("tool", tool.name());
        called.set("args", call.args());
        context.emit(PlanEvents.TOOL_CALLED, called);
        long started = System.nanoTime();
        int attempt = 1;
        while (true) {
            ToolContext toolContext = new ToolContext(context.runId(), id, context.runId() + "/" + id, attempt);
            RuntimeException failure;
            try {
                JsonNode result = call(tool, call.args(), toolContext);
                List<Schemas.Violation> violations = tool.checkOutput(result);
                if (!violations.isEmpty() && !tool.lenient()) {
                    throw new WeftException(
                            ErrorCode.E_TOOL_FAILED,
                            "tool '" + tool.name() + "' returned output that breaks its own schema at "
                                    + violations.get(0));
                }
                return committed(context, tool, id, call.args(), result, attempt, started);
            } catch (RuntimeException e) {
                failure = e;
            }
            if (executor.retry().shouldRetry(attempt, failure)) {
                Duration delay = executor.retryDelay(attempt);
                ObjectNode retrying = Json.object();
                retrying.put("stepId", id);
                retrying.put("tool", tool.name());
                retrying.put("attempt", attempt);
                retrying.put("delayMs", delay.toMillis());
                retrying.put("error", failure.getMessage());
                context.emit(PlanEvents.TOOL_RETRYING, retrying);
                try {
                    context.time().sleep(delay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failure = new WeftException(ErrorCode.E_CANCELLED, "interrupted while waiting to retry");
                    return failedCall(context, tool, id, call.args(), failure, attempt, started);
                }
                attempt++;
                continue;
            }
            return failedCall(context, tool, id, call.args(), failure, attempt, started);
        }
    }

    private JsonNode call(Tool tool, ObjectNode args, ToolContext toolContext) {
        CompletableFuture<JsonNode> future = executor.queue().submit(new StepQueue.Invocation(tool, args, toolContext));
        try {
            return future.get(tool.timeout().toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw StepQueue.timedOut(tool);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            while (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new WeftException(ErrorCode.E_TOOL_FAILED, "tool '" + tool.name() + "' failed: " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            throw new WeftException(ErrorCode.E_CANCELLED, "interrupted while tool '" + tool.name() + "' ran");
        }
    }

    private StepOutcome committed(
            NodeContext context, Tool tool, String id, ObjectNode args, JsonNode result, int attempts, long started) {
        long ms = (System.nanoTime() - started) / 1_000_000;
        ObjectNode succeeded = Json.object();
        succeeded.put("stepId", id);
        succeeded.put("tool", tool.name());
        succeeded.put("ms", ms);
        succeeded.set("result", result);
        context.emit(PlanEvents.TOOL_SUCCEEDED, succeeded);
        if (tool.chat()) {
            ObjectNode last = Json.object();
            last.put("stepId", id);
            last.put(
                    "text",
                    result.isTextual() ? result.asText() : result.path("text").asText(Json.write(result)));
            context.emit(PlanEvents.ASSISTANT_FINAL, last);
        }
        Optional<UndoAction> undo = tool.undo().flatMap(u -> u.undoFor(args, result));
        undo.ifPresent(action -> {
            ObjectNode enqueued = Json.object();
            enqueued.put("stepId", id);
            enqueued.put("tool", action.toolName());
            enqueued.set("args", action.args());
            context.emit(PlanEvents.UNDO_ENQUEUED, enqueued);
        });
        ObjectNode executed = Json.object();
        executed.put("stepId", id);
        executed.put("status", StepOutcome.Status.SUCCEEDED.name());
        executed.put("ms", ms);
        context.emit(PlanEvents.STEP_EXECUTED, executed);
        return new StepOutcome(
                id,
                StepOutcome.Status.SUCCEEDED,
                tool.name(),
                args,
                result,
                Optional.empty(),
                Optional.empty(),
                List.of(),
                undo,
                Optional.of(context.time().now()),
                attempts,
                ms);
    }

    private StepOutcome failedCall(
            NodeContext context,
            Tool tool,
            String id,
            ObjectNode args,
            RuntimeException failure,
            int attempts,
            long started) {
        long ms = (System.nanoTime() - started) / 1_000_000;
        RunError error = errorOf("tool '" + tool.name() + "'", failure);
        error = new RunError(error.code(), "step '" + id + "': " + error.message());
        ObjectNode failed = Json.object();
        failed.put("stepId", id);
        failed.put("tool", tool.name());
        failed.put("code", error.code().name());
        failed.put("message", error.message());
        failed.put("attempts", attempts);
        context.emit(PlanEvents.TOOL_FAILED, failed);
        ObjectNode executed = Json.object();
        executed.put("stepId", id);
        executed.put("status", StepOutcome.Status.FAILED.name());
        executed.put("ms", ms);
        context.emit(PlanEvents.STEP_EXECUTED, executed);
        return StepOutcome.failed(id, tool.name(), args, error, attempts, ms);
    }

    private static RunError errorOf(String who, RuntimeException e) {
        if (e instanceof WeftException weft) {
            return weft.toError();
        }
        return new RunError(
                ErrorCode.E_TOOL_FAILED,
                who + " failed: " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage()));
    }

    /** One outcome for the plan step: the single call's, or a parent over the expanded children. */
    private StepOutcome combine(Tool tool, JsonNode args, List<StepOutcome> outcomes) {
        if (outcomes.size() == 1 && outcomes.get(0).stepId().equals(step.id())) {
            return outcomes.get(0);
        }
        ArrayNode results = Json.mapper().createArrayNode();
        int failed = 0;
        int skipped = 0;
        int previewed = 0;
        long ms = 0;
        for (StepOutcome child : outcomes) {
            results.add(child.result());
            ms = Math.max(ms, child.durationMs());
            switch (child.status()) {
                case FAILED -> failed++;
                case SKIPPED -> skipped++;
                case PREVIEWED -> previewed++;
                case SUCCEEDED -> {}
            }
        }
        StepOutcome.Status status;
        Optional<RunError> error = Optional.empty();
        if (failed > 0) {
            status = StepOutcome.Status.FAILED;
            error = Optional.of(new RunError(
                    outcomes.stream()
                            .flatMap(o -> o.error().stream())
                            .findFirst()
                            .map(RunError::code)
                            .orElse(ErrorCode.E_TOOL_FAILED),
                    "step '" + step.id() + "': " + failed + " of " + outcomes.size() + " calls failed"));
        } else if (!outcomes.isEmpty() && skipped == outcomes.size()) {
            status = StepOutcome.Status.SKIPPED;
        } else if (!outcomes.isEmpty() && previewed == outcomes.size()) {
            status = StepOutcome.Status.PREVIEWED;
        } else {
            status = StepOutcome.Status.SUCCEEDED;
        }
        return new StepOutcome(
                step.id(),
                status,
                tool.name(),
                args,
                results,
                error,
                Optional.empty(),
                outcomes,
                Optional.empty(),
                Optional.empty(),
                outcomes.stream().mapToInt(StepOutcome::attempts).max().orElse(0),
                ms);
    }

    /** Seed 001's pre-execution table of a tool's inputs, in markdown. */
    static String inputTable(Tool tool, JsonNode args) {
        StringBuilder table = new StringBuilder("**" + tool.name() + "**\n\n| Parameter | Value |\n|---|---|\n");
        args.properties()
                .forEach(e -> table.append("| ")
                        .append(escape(e.getKey()))
                        .append(" | ")
                        .append(escape(e.getValue().isValueNode() ? e.getValue().asText() : Json.write(e.getValue())))
                        .append(" |\n"));
        return table.toString();
    }

    private static String escape(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
