package dev.weft.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.Json;
import dev.weft.core.RunJson;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.Step;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.workflow.Workflow;
import dev.weft.workflow.WorkflowParser;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code weft workflow run|check}: runs and checks workflow files. */
@Command(
        name = "workflow",
        mixinStandardHelpOptions = true,
        description = "Run and check workflow files (JSON graphs of nodes and connections).",
        subcommands = {WorkflowCommand.RunCommand.class, WorkflowCommand.CheckCommand.class})
final class WorkflowCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(
            name = "run",
            mixinStandardHelpOptions = true,
            description = {
                "Runs a workflow and prints each step as it happens, then the result.",
                "Exit status: 0 completed, 1 failed or cancelled, 2 invalid file or arguments, 3 waiting."
            })
    static final class RunCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Parameters(paramLabel = "FILE", description = "The workflow file (JSON).")
        Path file;

        @Option(names = "--user", paramLabel = "ID", description = "The user the run is for (shown by 'runs list').")
        String user;

        @Option(names = "--input", paramLabel = "JSON", description = "The run input (default: null).")
        String input;

        @Option(names = "--var", paramLabel = "NAME=JSON", description = "Overrides a workflow variable.")
        List<String> vars = new ArrayList<>();

        @Option(
                names = "--pin",
                paramLabel = "NODE_ID=JSON",
                description = "Does not run the node; uses JSON as its output.")
        List<String> pins = new ArrayList<>();

        @Option(names = "--json", description = "Prints one JSON object: the run, its steps and outputs.")
        boolean json;

        @Option(
                names = "--db",
                paramLabel = "URL",
                description = "Where runs are kept: sqlite:PATH or jdbc:postgresql://… (default: WEFT_DB, else"
                        + " SQLite under WEFT_HOME or ~/.weft).")
        String db;

        @Option(names = "--detach", description = "Starts the run in a background process, prints its id and returns.")
        boolean detach;

        @Option(names = "--run-id", hidden = true, description = "The id of the run to start (used by --detach).")
        String runId;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            Workflow workflow;
            RunRequest request;
            try {
                workflow = Workflow.compile(WorkflowParser.read(file), Storage.nodeTypes(db));
                request = request(workflow);
            } catch (WeftException e) {
                return invalid(spec, json, e);
            }
            try (RunStore store = Storage.open(db)) {
                if (detach) {
                    return Detached.start(spec, store, request.runId().orElseThrow(), json);
                }
                return run(out, store, workflow, request);
            } catch (WeftException e) {
                return failure(spec, json, e);
            }
        }

        private int run(PrintWriter out, RunStore store, Workflow workflow, RunRequest request) {
            Runner.Builder builder = Storage.runner(store);
            if (!json) {
                builder.listener(event -> printEvent(out, event));
            }
            Runner runner = builder.build();
            Runner.RunHandle handle = runner.start(workflow.graph(), request);
            Thread cancelOnInterrupt = new Thread(() -> cancelAndWait(runner, handle));
            Runtime.getRuntime().addShutdownHook(cancelOnInterrupt);
            RunResult result;
            try {
                result = handle.result().get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ExitCodes.FAILED;
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                spec.commandLine().getErr().println("weft: run failed inside the runtime: " + cause);
                return ExitCodes.FAILED;
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(cancelOnInterrupt);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running: it cancels the run and waits for it
                }
            }
            if (json) {
                out.println(Json.write(RunJson.of(result)));
            } else {
                printResult(out, result);
            }
            out.flush();
            return ExitCodes.of(result.status());
        }

        private RunRequest request(Workflow workflow) {
            RunRequest.Builder request = RunRequest.builder()
                    .source(workflow.definition().toJson())
                    .runId(runId != null ? runId : java.util.UUID.randomUUID().toString());
            if (input != null) {
                request.input(argument("--input", input));
            }
            if (user != null) {
                try {
                    request.user(user);
                } catch (IllegalArgumentException e) {
                    throw new WeftException(ErrorCode.E_BAD_INPUT, "--user: " + e.getMessage());
                }
            }
            for (String var : vars) {
                String[] nameValue = nameValue("--var", var);
                request.variable(nameValue[0], argument("--var " + nameValue[0], nameValue[1]));
            }
            for (String pin : pins) {
                String[] nameValue = nameValue("--pin", pin);
                if (workflow.graph().node(nameValue[0]).isEmpty()) {
                    throw new GraphInvalidException(
                            "--pin " + nameValue[0] + ": the workflow has no node '" + nameValue[0] + "'");
                }
                request.pin(nameValue[0], argument("--pin " + nameValue[0], nameValue[1]));
            }
            return request.build();
        }

        private static JsonNode argument(String option, String text) {
            try {
                return Json.mapper().readTree(text);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new GraphInvalidException(option + ": not valid JSON: " + Json.describe(e));
            }
        }

        private static String[] nameValue(String option, String text) {
            int eq = text.indexOf('=');
            if (eq <= 0) {
                throw new GraphInvalidException(option + " " + text + ": expected NAME=JSON");
            }
            return new String[] {text.substring(0, eq), text.substring(eq + 1)};
        }

        static void cancelAndWait(Runner runner, Runner.RunHandle handle) {
            if (handle.result().isDone()) {
                return;
            }
            try {
                runner.cancel(handle.runId());
                handle.result().get(30, TimeUnit.SECONDS);
            } catch (WeftException | ExecutionException | TimeoutException e) {
                // best effort while the process exits
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        static void printEvent(PrintWriter out, Event event) {
            String node = event.nodeId().orElse("");
            switch (event.type()) {
                case Event.STEP_STARTED -> out.printf("  #%d %s started%n", event.stepOrder(), node);
                case Event.STEP_COMPLETED ->
                    out.printf(
                            "  #%d %s completed%s%n",
                            event.stepOrder(),
                            node,
                            event.data().path("pinned").asBoolean()
                                    ? " (pinned)"
                                    : event.data().has("ms")
                                            ? " in " + event.data().get("ms") + " ms"
                                            : "");
                case Event.STEP_FAILED ->
                    out.printf(
                            "  #%d %s failed: %s %s%n",
                            event.stepOrder(),
                            node,
                            event.data().path("code").asText(),
                            event.data().path("message").asText());
                case Event.STEP_RETRYING ->
                    out.printf(
                            "  #%d %s retrying after attempt %s in %s ms: %s%n",
                            event.stepOrder(),
                            node,
                            event.data().path("attempt").asText(),
                            event.data().path("delayMs").asText(),
                            event.data().path("error").asText());
                case Event.STEP_WAITING -> out.printf("  #%d %s waiting: %s%n", event.stepOrder(), node, event.data());
                case Event.STEP_SKIPPED -> out.printf("  #%d %s skipped%n", event.stepOrder(), node);
                default -> {
                    return;
                }
            }
            out.flush();
        }

        static void printResult(PrintWriter out, RunResult result) {
            out.println("run " + result.runId() + " " + result.status());
            result.error().ifPresent(e -> out.println("error: " + e.code() + ": " + e.message()));
            if (result.status() == RunStatus.WAITING) {
                result.interrupts()
                        .forEach((node, payload) -> out.println("waiting on " + node + ": " + Json.write(payload)));
            }
            out.println("outputs:");
            result.outputs().forEach((name, value) -> out.println("  " + name + ": " + Json.write(value)));
            long completed = result.steps().stream()
                    .filter(s -> s.status() == dev.weft.core.StepStatus.COMPLETED)
                    .count();
            out.println(result.steps().size() + " steps, " + completed + " completed");
            if (!result.output().isNull()) {
                out.println("output: " + Json.write(result.output()));
            }
            List<Step> failed =
                    result.steps().stream().filter(s -> s.error().isPresent()).toList();
            failed.forEach(s -> out.println("  step #" + s.order() + " " + s.nodeId() + ": "
                    + s.error().orElseThrow().message()));
        }
    }

    @Command(
            name = "check",
            mixinStandardHelpOptions = true,
            description = {"Compiles a workflow and reports whether it can run.", "Exit status: 0 valid, 2 invalid."})
    static final class CheckCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Parameters(paramLabel = "FILE", description = "The workflow file (JSON).")
        Path file;

        @Option(names = "--mermaid", description = "Prints the graph as a Mermaid flowchart.")
        boolean mermaid;

        @Override
        public Integer call() {
            Workflow workflow;
            try {
                workflow = Workflow.compile(WorkflowParser.read(file), Storage.nodeTypes());
            } catch (WeftException e) {
                return invalid(spec, false, e);
            }
            PrintWriter out = spec.commandLine().getOut();
            if (mermaid) {
                out.print(workflow.graph().toMermaid());
            } else {
                out.printf(
                        "workflow '%s' is valid: %d nodes, %d connections%n",
                        workflow.id(),
                        workflow.graph().nodes().size(),
                        workflow.definition().connections().size());
            }
            out.flush();
            return ExitCodes.OK;
        }
    }

    /**
     * A failure that is not the file's or the arguments' fault as such (a store that cannot be opened,
     * a run in the wrong state, an unknown run id): exit 2 with its own code.
     */
    static int failure(CommandLine.Model.CommandSpec spec, boolean json, WeftException e) {
        if (json) {
            PrintWriter out = spec.commandLine().getOut();
            out.println(Json.write(WeftCommand.invalid(e.code(), e.getMessage())));
            out.flush();
        } else {
            PrintWriter err = spec.commandLine().getErr();
            err.println("weft: " + e.code() + ": " + e.getMessage());
            err.flush();
        }
        return ExitCodes.INVALID;
    }

    static int invalid(CommandLine.Model.CommandSpec spec, boolean json, WeftException e) {
        ErrorCode code = e.code() == ErrorCode.E_BAD_INPUT ? ErrorCode.E_GRAPH_INVALID : e.code();
        if (json) {
            PrintWriter out = spec.commandLine().getOut();
            out.println(Json.write(WeftCommand.invalid(code, e.getMessage())));
            out.flush();
        } else {
            PrintWriter err = spec.commandLine().getErr();
            if (e instanceof GraphInvalidException invalid && invalid.problems().size() > 1) {
                err.println("weft: " + code + ": " + invalid.problems().size() + " problems:");
                invalid.problems().forEach(p -> err.println("  - " + p));
            } else {
                err.println("weft: " + code + ": " + e.getMessage());
            }
            err.flush();
        }
        return ExitCodes.INVALID;
    }
}
