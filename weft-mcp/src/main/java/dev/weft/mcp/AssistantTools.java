package dev.weft.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.assistant.Assistant;
import dev.weft.assistant.Assistants;
import dev.weft.assistant.Message;
import dev.weft.assistant.Turn;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.Run;
import dev.weft.core.RunError;
import dev.weft.core.RunJson;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.plan.Plan;
import dev.weft.plan.PlanDecision;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.PlanRequest;
import dev.weft.plan.PlanStep;
import dev.weft.plan.ResolverRegistry;
import dev.weft.plan.Risk;
import dev.weft.plan.StepOutcome;
import dev.weft.plan.Tool;
import dev.weft.plan.ToolRegistry;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What Weft offers another agent over MCP, for one user at a time: every assistant's tools (named
 * {@code <assistant>_<tool>}, with their JSON Schemas and risk), a tool to talk to each assistant in
 * words ({@code <assistant>_chat}), and the user's runs ({@code runs_list}, {@code runs_show}, {@code
 * runs_approve}, {@code runs_reject}, {@code runs_answer}). A call to an assistant's tool is a run of
 * its own — a one-step plan on the {@link #EXECUTOR} executor — so it is validated, approved and
 * recorded as any step is, and can be looked at with {@code weft runs show}. A high-risk call is
 * never made unconfirmed: it waits for the person, asked through the {@link Confirmer} when the
 * client can ask, else the call fails with {@code E_APPROVAL_REQUIRED} and says how to approve its
 * waiting run. Thread-safe.
 */
public final class AssistantTools {
    /** The name of the executor MCP tool calls run on, kept with their runs. */
    public static final String EXECUTOR = "mcp";
    /** The capability of an MCP call's one step. */
    static final String CAPABILITY = McpTools.CAPABILITY;
    /** The id of an MCP call's one step; not a word a message would hold after a '$'. */
    static final String STEP = "mcp-call";

    static final String RUNS_LIST = "runs_list";
    static final String RUNS_SHOW = "runs_show";
    static final String RUNS_APPROVE = "runs_approve";
    static final String RUNS_REJECT = "runs_reject";
    static final String RUNS_ANSWER = "runs_answer";
    static final String CHAT = "_chat";

    /** How a high-risk call asks its person; empty when the client cannot ask (no elicitation). */
    @FunctionalInterface
    public interface Confirmer {
        /** Yes or no from the person, or empty when there is no way to ask them. */
        Optional<Boolean> confirm(String question);

        /** The confirmer of a client that cannot ask. */
        Confirmer NONE = question -> Optional.empty();
    }

    /** One tool as a client sees it. */
    public record Offered(
            String name,
            String description,
            ObjectNode inputSchema,
            Optional<ObjectNode> outputSchema,
            Risk risk,
            boolean readOnly) {
        public Offered {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(inputSchema, "inputSchema");
            Objects.requireNonNull(outputSchema, "outputSchema");
            Objects.requireNonNull(risk, "risk");
        }
    }

    /** What a call came to: a result, or a failure with its code; and the run it made, if any. */
    public sealed interface Outcome {
        Optional<String> runId();

        record Done(JsonNode result, Optional<String> runId) implements Outcome {
            public Done {
                Objects.requireNonNull(result, "result");
                Objects.requireNonNull(runId, "runId");
            }
        }

        record Failed(ErrorCode code, String message, Optional<String> runId) implements Outcome {
            public Failed {
                Objects.requireNonNull(code, "code");
                Objects.requireNonNull(message, "message");
                Objects.requireNonNull(runId, "runId");
            }
        }
    }

    private final Assistants assistants;
    private final Runner runner;
    private final PlanExecutor executor;
    private final Map<String, Offered> offered;

    private AssistantTools(Assistants assistants, Runner runner) {
        this.assistants = assistants;
        this.runner = runner;
        this.executor = executor(assistants);
        Map<String, Offered> tools = new LinkedHashMap<>();
        for (Tool tool : executor.tools().all()) {
            tools.put(
                    tool.name(),
                    new Offered(
                            tool.name(),
                            tool.description(),
                            tool.inputSchema(),
                            objectSchema(tool.outputSchema()),
                            tool.risk(),
                            false));
        }
        for (Assistant assistant : assistants.all()) {
            String name = assistant.name() + CHAT;
            tools.put(
                    name,
                    new Offered(
                            name,
                            "Talk to " + assistant.description()
                                    + ". One message in words (English or Hebrew); a 'yes' or 'no' answers what the"
                                    + " last reply asked to approve, a number or words answer its question.",
                            Catalog.chatInput(),
                            Optional.of(Catalog.chatOutput()),
                            Risk.LOW,
                            false));
        }
        Catalog.runsTools().forEach(tool -> tools.put(tool.name(), tool));
        this.offered = java.util.Collections.unmodifiableMap(tools);
    }

    /** The tools of {@code assistants}, their calls run on {@code runner}. */
    public static AssistantTools create(Assistants assistants, Runner runner) {
        return new AssistantTools(
                Objects.requireNonNull(assistants, "assistants"), Objects.requireNonNull(runner, "runner"));
    }

    /**
     * The executor an MCP call's run is made with: every assistant's tools, renamed {@code
     * <assistant>_<tool>}, and a resolver that calls the tool its step names with the step's arguments.
     * A process that did not start such a run rebuilds it through {@link McpExecutorProvider}.
     */
    static PlanExecutor executor(Assistants assistants) {
        ToolRegistry tools = ToolRegistry.of();
        for (Assistant assistant : assistants.all()) {
            for (Tool tool : assistant.tools().all()) {
                if (!tool.chat()) {
                    tools = tools.with(renamed(assistant.name() + "_" + tool.name(), tool));
                }
            }
        }
        return PlanExecutor.builder()
                .name(EXECUTOR)
                .resolvers(ResolverRegistry.of(McpTools.resolver()))
                .tools(tools)
                .build();
    }

    /** {@code tool} under another name: the same schemas, risk, idempotence, timeout and call. */
    static Tool renamed(String name, Tool tool) {
        Tool.Builder builder = Tool.json(
                        name, tool.description(), tool.inputSchema(), tool.outputSchema(), tool::invoke)
                .idempotent(tool.idempotent())
                .lenient(tool.lenient())
                .timeout(tool.timeout());
        if (tool.risk() == Risk.HIGH) {
            builder.risk(tool::risk);
        } else {
            builder.risk(Risk.LOW);
        }
        return builder.build();
    }

    /** Every tool offered, in a stable order: the assistants' tools, their chats, then the runs. */
    public List<Offered> list() {
        return List.copyOf(offered.values());
    }

    public Optional<Offered> find(String name) {
        return Optional.ofNullable(offered.get(name));
    }

    /**
     * Calls tool {@code name} for {@code user}. Bad input is a {@link Outcome.Failed} with its code, as
     * is a tool's failure; nothing here throws for what a caller sent.
     */
    public Outcome call(String user, String name, ObjectNode args, Confirmer confirmer) {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(args, "args");
        Objects.requireNonNull(confirmer, "confirmer");
        try {
            if (name.equals(RUNS_LIST)) {
                return done(listRuns(user, args));
            }
            if (name.equals(RUNS_SHOW)) {
                return done(RunJson.of(runner.result(visibleRun(user, args).id())));
            }
            if (name.equals(RUNS_APPROVE) || name.equals(RUNS_REJECT) || name.equals(RUNS_ANSWER)) {
                return decide(user, name, args);
            }
            if (name.endsWith(CHAT)) {
                Optional<Assistant> assistant = assistants.find(name.substring(0, name.length() - CHAT.length()));
                if (assistant.isPresent()) {
                    return chat(user, assistant.get(), args);
                }
            }
            if (executor.tools().find(name).isPresent()) {
                return callTool(user, name, args, confirmer);
            }
            return new Outcome.Failed(
                    ErrorCode.E_NOT_FOUND,
                    "no tool named '" + name + "'; known: " + String.join(", ", offered.keySet()),
                    Optional.empty());
        } catch (WeftException e) {
            return new Outcome.Failed(e.code(), e.getMessage(), Optional.empty());
        }
    }

    private Outcome callTool(String user, String name, ObjectNode args, Confirmer confirmer) {
        Plan plan = new Plan(
                CAPABILITY, 1.0, List.of(new PlanStep(STEP, CAPABILITY, name, args, Json.object(), List.of())));
        ObjectNode input = Json.object();
        input.put("via", "mcp");
        input.put("tool", name);
        RunResult result = executor.run(runner, plan, PlanRequest.auto(input).forUser(user));
        if (result.status() == RunStatus.WAITING) {
            JsonNode waiting = result.interrupts().get("step:" + STEP);
            String question = "Go ahead with " + name + " " + Json.write(waiting == null ? args : waiting.path("args"))
                    + "? It is high-risk, and nothing is done until you say yes.";
            Optional<Boolean> answer = confirmer.confirm(question);
            if (answer.isEmpty()) {
                return new Outcome.Failed(
                        ErrorCode.E_APPROVAL_REQUIRED,
                        "tool '" + name + "' is high-risk and this client cannot ask its user to confirm (no MCP"
                                + " elicitation), so nothing was done: run '" + result.runId()
                                + "' waits for a person. Once they say yes, call " + RUNS_APPROVE
                                + " with {\"runId\": \""
                                + result.runId() + "\"} (or " + RUNS_REJECT + " to drop it); or 'weft runs show "
                                + result.runId() + "', POST /api/runs/" + result.runId() + "/approve.",
                        Optional.of(result.runId()));
            }
            result = executor.resume(
                    runner,
                    result.runId(),
                    answer.get() ? PlanDecision.approve(STEP) : PlanDecision.reject(STEP),
                    user);
            if (!answer.get()) {
                return new Outcome.Failed(
                        ErrorCode.E_APPROVAL_REQUIRED,
                        "the user declined; tool '" + name + "' was not called and nothing changed",
                        Optional.of(result.runId()));
            }
        }
        return outcomeOf(result);
    }

    /** The outcome of a finished MCP call run: its one step's result or error. */
    private static Outcome outcomeOf(RunResult result) {
        StepOutcome step = PlanExecutor.outcomes(result).get(STEP);
        Optional<String> runId = Optional.of(result.runId());
        if (step != null && step.status() == StepOutcome.Status.SUCCEEDED) {
            return new Outcome.Done(step.result(), runId);
        }
        RunError error = step == null
                ? result.error().orElse(new RunError(ErrorCode.E_TOOL_FAILED, "the call did not run"))
                : step.error()
                        .orElse(new RunError(
                                ErrorCode.E_TOOL_FAILED, step.reason().orElse("the call ended " + step.status())));
        return new Outcome.Failed(error.code(), error.message(), runId);
    }

    private Outcome chat(String user, Assistant assistant, ObjectNode args) {
        String text = Catalog.text(args, "message");
        // An assistant that serves many people under one key never puts unnamed chats in one
        // conversation: what one person proved there would be the next one's.
        String session = args.hasNonNull("session")
                ? Catalog.text(args, "session")
                : !assistant.servesCustomers() ? user : "mcp-" + dev.weft.core.RunIds.next();
        Message message = Message.of(user, text).session(session);
        if (args.hasNonNull("zone")) {
            try {
                message = message.zone(ZoneId.of(args.get("zone").asText()));
            } catch (java.time.DateTimeException e) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT, "zone '" + args.get("zone").asText() + "' is not a time zone");
            }
        }
        ObjectNode out = turnJson(assistant.converse(runner, message));
        out.put("session", session);
        return done(out);
    }

    private Outcome decide(String user, String name, ObjectNode args) {
        Run run = visibleRun(user, args);
        Optional<Assistant> owner = assistants.ownerOf(run);
        if (owner.isPresent()) {
            Turn turn = switch (name) {
                case RUNS_APPROVE -> owner.get().approve(runner, user, run.id(), steps(args));
                case RUNS_REJECT -> owner.get().reject(runner, user, run.id());
                default -> owner.get().answer(runner, user, run.id(), Catalog.text(args, "text"));
            };
            return done(turnJson(turn));
        }
        if (PlanExecutor.executorName(run).filter(EXECUTOR::equals).isPresent()) {
            if (run.status() != RunStatus.WAITING) {
                throw new WeftException(
                        ErrorCode.E_RUN_STATE, "run '" + run.id() + "' is " + run.status() + ", not waiting");
            }
            if (name.equals(RUNS_ANSWER)) {
                throw new WeftException(
                        ErrorCode.E_RUN_STATE, "run '" + run.id() + "' asks no question: approve or reject it");
            }
            RunResult result = executor.resume(
                    runner,
                    run.id(),
                    name.equals(RUNS_APPROVE) ? PlanDecision.approve(STEP) : PlanDecision.reject(STEP),
                    user);
            ObjectNode out = Json.object();
            out.put("runId", result.runId());
            out.put("status", result.status().name());
            Outcome outcome = outcomeOf(result);
            if (outcome instanceof Outcome.Done d) {
                out.set("result", d.result());
            } else if (outcome instanceof Outcome.Failed f) {
                out.putObject("error").put("code", f.code().name()).put("message", f.message());
            }
            return done(out);
        }
        throw new WeftException(
                ErrorCode.E_RUN_STATE,
                "run '" + run.id()
                        + "' is not an assistant's or an MCP call's run; continue it with 'weft runs resume'");
    }

    private static List<String> steps(ObjectNode args) {
        List<String> steps = new ArrayList<>();
        args.path("steps").forEach(step -> steps.add(step.asText()));
        return steps;
    }

    private static ObjectNode turnJson(Turn turn) {
        ObjectNode out = Json.object();
        out.put("reply", turn.text());
        out.put("language", turn.language());
        out.put("status", turn.run().status().name());
        out.put("runId", turn.run().runId());
        return out;
    }

    /**
     * The run {@code args.runId} names, if it is {@code user}'s.
     *
     * @throws NotFoundException for a run that does not exist or is another user's: the two are not told apart
     */
    private Run visibleRun(String user, ObjectNode args) {
        String runId = Catalog.text(args, "runId");
        return runner.store()
                .findRun(runId)
                .filter(run -> run.user().filter(user::equals).isPresent())
                .orElseThrow(() -> new NotFoundException("no run '" + runId + "'"));
    }

    private ObjectNode listRuns(String user, ObjectNode args) {
        Optional<RunStatus> status = Optional.empty();
        if (args.hasNonNull("status")) {
            try {
                status = Optional.of(RunStatus.valueOf(args.get("status").asText()));
            } catch (IllegalArgumentException e) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT,
                        "status '" + args.get("status").asText() + "' is not one of "
                                + java.util.Arrays.toString(RunStatus.values()));
            }
        }
        int limit = args.path("limit").asInt(20);
        if (limit < 1 || limit > 100) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "limit must be from 1 to 100, was " + limit);
        }
        List<Run> runs = runner.store().listRuns(status, Optional.of(user));
        ObjectNode out = Json.object();
        ArrayNode list = out.putArray("runs");
        runs.stream()
                .sorted(java.util.Comparator.comparing(Run::createdAt).reversed())
                .limit(limit)
                .forEach(run -> {
                    ObjectNode row = list.addObject();
                    row.put("runId", run.id());
                    row.put("status", run.status().name());
                    row.put("graphId", run.graphId());
                    row.put("createdAt", run.createdAt().toString());
                    run.endedAt().ifPresent(at -> row.put("endedAt", at.toString()));
                    String tool = run.input().path("input").path("tool").asText("");
                    if (!tool.isEmpty()) {
                        row.put("tool", tool);
                    }
                });
        return out;
    }

    private static Outcome done(JsonNode result) {
        return new Outcome.Done(result, Optional.empty());
    }

    /** A schema MCP can carry as a tool's {@code outputSchema}: only one whose root is an object. */
    private static Optional<ObjectNode> objectSchema(ObjectNode schema) {
        return schema.path("type").asText("").equals("object") ? Optional.of(schema) : Optional.empty();
    }
}
