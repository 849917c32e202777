package dev.weft.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.Graph;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.Run;
import dev.weft.core.RunJson;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.RunStateException;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.Step;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code weft runs …}: list, inspect, approve, reject, resume, cancel, re-run, fork and prune stored runs. */
@Command(
        name = "runs",
        mixinStandardHelpOptions = true,
        description = "Inspect and continue stored runs.",
        subcommands = {
            RunsCommand.ListRuns.class,
            RunsCommand.Show.class,
            RunsCommand.Approve.class,
            RunsCommand.Reject.class,
            RunsCommand.Resume.class,
            RunsCommand.Cancel.class,
            RunsCommand.Rerun.class,
            RunsCommand.Fork.class,
            RunsCommand.Prune.class
        })
final class RunsCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** What every runs subcommand shares: the store, JSON output, error handling. */
    abstract static class RunsSubcommand extends StoreCommand {
        @Option(names = "--json", description = "Prints JSON: the run as 'workflow run --json' prints it, or a list.")
        boolean json;

        @Override
        boolean json() {
            return json;
        }

        static Run find(RunStore store, String runId) {
            return store.findRun(runId).orElseThrow(() -> new NotFoundException("no run '" + runId + "'"));
        }

        int print(PrintWriter out, RunResult result, boolean json) {
            if (json) {
                out.println(Json.write(RunJson.of(result)));
            } else {
                WorkflowCommand.RunCommand.printResult(out, result);
            }
            return ExitCodes.of(result.status());
        }

        Runner runner(RunStore store, boolean json) {
            Runner.Builder builder = Storage.runner(store);
            PrintWriter out = spec.commandLine().getOut();
            if (!json) {
                builder.listener(event -> WorkflowCommand.RunCommand.printEvent(out, event));
            }
            return builder.build();
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Lists runs, newest first.")
    static final class ListRuns extends RunsSubcommand {
        @Option(names = "--status", paramLabel = "S", description = "Only runs in this status (RUNNING, WAITING, …).")
        String status;

        @Option(names = "--user", paramLabel = "ID", description = "Only the runs of this user.")
        String user;

        @Option(names = "--limit", paramLabel = "N", description = "At most N runs (default 50).")
        int limit = 50;

        @Option(names = "--offset", paramLabel = "N", description = "Skip the N newest runs first (default 0).")
        int offset;

        @Override
        int call(RunStore store, PrintWriter out) {
            Optional<RunStatus> filter = Optional.empty();
            if (status != null) {
                try {
                    filter = Optional.of(RunStatus.valueOf(status.toUpperCase(Locale.ROOT)));
                } catch (IllegalArgumentException e) {
                    throw new WeftException(
                            ErrorCode.E_BAD_INPUT,
                            "--status " + status + ": not a run status (one of "
                                    + java.util.Arrays.toString(RunStatus.values()) + ")");
                }
            }
            if (limit < 1) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT, "--limit " + limit + ": a whole number of 1 or more is expected");
            }
            if (offset < 0) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT, "--offset " + offset + ": a whole number of 0 or more is expected");
            }
            RunStore.RunPage page =
                    store.listRuns(new RunStore.RunQuery(filter, Optional.ofNullable(user), offset, limit));
            List<Run> runs = page.runs();
            if (json) {
                ArrayNode array = Json.mapper().createArrayNode();
                for (Run run : runs) {
                    ObjectNode node = array.addObject();
                    node.put("runId", run.id());
                    node.put("graphId", run.graphId());
                    node.put("status", run.status().name());
                    node.put("user", run.user().orElse(null));
                    node.put("createdAt", run.createdAt().toString());
                    node.put("endedAt", run.endedAt().map(Instant::toString).orElse(null));
                    node.set("error", RunJson.error(run.error()));
                }
                out.println(Json.write(array));
            } else if (runs.isEmpty()) {
                out.println("no runs");
            } else {
                out.printf("%-36s  %-10s  %-16s  %-24s  %s%n", "RUN", "STATUS", "USER", "STARTED", "GRAPH");
                for (Run run : runs) {
                    out.printf(
                            "%-36s  %-10s  %-16s  %-24s  %s%n",
                            run.id(), run.status(), run.user().orElse("-"), run.createdAt(), run.graphId());
                }
                long more = page.total() - offset - runs.size();
                if (more > 0) {
                    out.printf("… %d more: --offset %d%n", more, offset + runs.size());
                }
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Shows a run: its steps and outputs.")
    static final class Show extends RunsSubcommand {
        @Parameters(paramLabel = "RUN_ID")
        String runId;

        @Option(names = "--events", description = "Includes the run's events.")
        boolean events;

        @Override
        int call(RunStore store, PrintWriter out) {
            find(store, runId);
            RunResult result = Runner.builder().store(store).build().result(runId);
            if (json) {
                ObjectNode node = RunJson.of(result);
                if (events) {
                    ArrayNode array = node.putArray("events");
                    for (Event event : store.events(runId)) {
                        array.add(RunJson.event(event));
                    }
                }
                out.println(Json.write(node));
            } else {
                out.println("run " + result.runId() + " " + result.status() + " (graph "
                        + result.run().graphId() + ")"
                        + result.run().user().map(u -> ", user " + u).orElse(""));
                for (Step step : result.steps()) {
                    out.printf(
                            "  #%d %s (%s) %s%s%s%n",
                            step.order(),
                            step.nodeId(),
                            step.type(),
                            step.status(),
                            step.pinned() ? " pinned" : "",
                            step.error()
                                    .map(e -> " " + e.code() + ": " + e.message())
                                    .orElse(""));
                }
                result.error().ifPresent(e -> out.println("error: " + e.code() + ": " + e.message()));
                if (events) {
                    for (Event event : store.events(runId)) {
                        out.printf(
                                "  %4d %s %s %s%n",
                                event.sequence(),
                                event.time(),
                                event.type(),
                                event.nodeId().orElse(""));
                    }
                }
            }
            return ExitCodes.of(result.status());
        }
    }

    @Command(
            name = "resume",
            mixinStandardHelpOptions = true,
            description = {
                "Continues a run: a WAITING one with the input or approvals given, a RUNNING one whose process",
                "died from its last checkpoint. --all recovers every run whose process died."
            })
    static final class Resume extends RunsSubcommand {
        @Parameters(paramLabel = "RUN_ID", arity = "0..1")
        String runId;

        @Option(names = "--all", description = "Recovers every run left RUNNING by a process that died.")
        boolean all;

        @Option(names = "--input", paramLabel = "JSON", description = "The value the waiting node is resumed with.")
        String input;

        @Option(names = "--approve", paramLabel = "STEP_ID", description = "Approves a step waiting for approval.")
        List<String> approve = new ArrayList<>();

        @Option(names = "--reject", paramLabel = "STEP_ID", description = "Rejects a step waiting for approval.")
        List<String> reject = new ArrayList<>();

        @Override
        int call(RunStore store, PrintWriter out) {
            if (all == (runId != null)) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "give either a RUN_ID or --all");
            }
            Runner runner = runner(store, json);
            if (all) {
                ArrayNode results = Json.mapper().createArrayNode();
                int worst = ExitCodes.OK;
                for (Run run : runner.recoverable()) {
                    if (run.parentRunId().isPresent()) {
                        continue;
                    }
                    RunResult result = runner.recover(Storage.graphOf(run, store), run.id());
                    if (json) {
                        results.add(RunJson.of(result));
                    } else {
                        out.println("recovered " + run.id() + ": " + result.status());
                    }
                    worst = Math.max(worst, ExitCodes.of(result.status()));
                }
                if (json) {
                    out.println(Json.write(results));
                } else if (results.isEmpty() && worst == ExitCodes.OK) {
                    out.println("no run needs recovering");
                }
                return worst;
            }
            Run run = find(store, runId);
            Graph graph = Storage.graphOf(run, store);
            return switch (run.status()) {
                case WAITING -> print(out, runner.resume(graph, runId, value()), json);
                case RUNNING -> print(out, runner.recover(graph, runId), json);
                case PENDING, COMPLETED, FAILED, CANCELLED ->
                    throw new RunStateException(
                            "run '" + runId + "' is " + run.status() + "; there is nothing to resume");
            };
        }

        private JsonNode value() {
            JsonNode value = input == null ? Json.object() : Json.parse(input, "--input");
            if (approve.isEmpty() && reject.isEmpty()) {
                return value;
            }
            ObjectNode decision = value.isObject() ? ((ObjectNode) value).deepCopy() : Json.object();
            if (!value.isObject() && input != null) {
                decision.set("input", value);
            }
            ArrayNode approved = decision.putArray("approve");
            approve.forEach(approved::add);
            ArrayNode rejected = decision.putArray("reject");
            reject.forEach(rejected::add);
            if (!approve.isEmpty()) {
                decision.put("approved", true);
            }
            return decision;
        }
    }

    /** What approving and rejecting share: the waiting run, the steps named (or all it waits on), who decides. */
    abstract static class Decide extends RunsSubcommand {
        @Parameters(paramLabel = "RUN_ID")
        String runId;

        @Option(
                names = "--step",
                paramLabel = "STEP_ID",
                description = "Only this waiting plan step (repeatable; default: all the run waits on).")
        List<String> steps = new ArrayList<>();

        @Option(names = "--by", paramLabel = "NAME", description = "Who decides, as recorded (default: $USER).")
        String by = System.getenv().getOrDefault("USER", "cli");

        int decide(RunStore store, PrintWriter out, boolean approved) {
            Run run = find(store, runId);
            if (run.status() != RunStatus.WAITING) {
                throw new RunStateException(
                        "run '" + runId + "' is " + run.status() + "; it waits for no one's decision");
            }
            Runner runner = runner(store, json);
            Optional<dev.weft.assistant.Assistant> assistant =
                    run.user().isPresent() ? Storage.assistants(store).ownerOf(run) : Optional.empty();
            if (assistant.isPresent()) {
                // An assistant's run is continued by its assistant, which answers in the user's words.
                String user = run.user().orElseThrow();
                dev.weft.assistant.Turn turn = approved
                        ? assistant.get().approve(runner, user, runId, steps)
                        : assistant.get().reject(runner, user, runId);
                out.println(json ? Json.write(turn.json()) : turn.text());
                return ExitCodes.of(turn.run().status());
            }
            ObjectNode decision = Json.object();
            decision.put("approved", approved);
            decision.put("by", by);
            ArrayNode named = decision.putArray(approved ? "approve" : "reject");
            List<String> waiting = steps.isEmpty()
                    ? runner.result(runId).interrupts().keySet().stream()
                            .filter(k -> k.startsWith("step:"))
                            .map(k -> k.substring("step:".length()))
                            .toList()
                    : steps;
            waiting.forEach(named::add);
            return print(out, runner.resume(Storage.graphOf(run, store), runId, decision), json);
        }
    }

    @Command(
            name = "approve",
            mixinStandardHelpOptions = true,
            description = {
                "Approves what a WAITING run waits for and continues it: a high-risk step, or one whose outcome",
                "is unknown (E_OUTCOME_UNKNOWN, 'may have been sent — send again?'), which is then made again."
            })
    static final class Approve extends Decide {
        @Override
        int call(RunStore store, PrintWriter out) {
            return decide(store, out, true);
        }
    }

    @Command(
            name = "reject",
            mixinStandardHelpOptions = true,
            description = {
                "Rejects what a WAITING run waits for and continues it without it: nothing of it is done, and",
                "a step whose outcome is unknown (E_OUTCOME_UNKNOWN) is given up, not made again."
            })
    static final class Reject extends Decide {
        @Override
        int call(RunStore store, PrintWriter out) {
            return decide(store, out, false);
        }
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true, description = "Stops a run before its next node.")
    static final class Cancel extends RunsSubcommand {
        @Parameters(paramLabel = "RUN_ID")
        String runId;

        @Override
        int call(RunStore store, PrintWriter out) {
            find(store, runId);
            Run run = Runner.builder().store(store).build().cancel(runId);
            out.println(
                    run.status() == RunStatus.CANCELLED
                            ? "run " + runId + " cancelled"
                            : "run " + runId + ": cancellation requested; it stops before its next node");
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "rerun",
            mixinStandardHelpOptions = true,
            description = "Runs a run's workflow again with the same input; pinned nodes reuse that run's outputs.")
    static final class Rerun extends RunsSubcommand {
        @Parameters(paramLabel = "RUN_ID")
        String runId;

        @Option(names = "--pin", paramLabel = "NODE_ID", description = "Reuses this node's output from the run.")
        List<String> pins = new ArrayList<>();

        @Override
        int call(RunStore store, PrintWriter out) {
            Run run = find(store, runId);
            Graph graph = Storage.graphOf(run, store);
            RunRequest.Builder request = RunRequest.rerunOf(run, graph, store.steps(runId), pins);
            return print(out, runner(store, json).run(graph, request.build()), json);
        }
    }

    @Command(
            name = "fork",
            mixinStandardHelpOptions = true,
            description = "Starts a new run from the checkpoint a run wrote after one of its steps.")
    static final class Fork extends RunsSubcommand {
        @Parameters(paramLabel = "RUN_ID")
        String runId;

        @Option(names = "--from", paramLabel = "STEP_ORDER", required = true, description = "The step to fork after.")
        int from;

        @Override
        int call(RunStore store, PrintWriter out) {
            Run run = find(store, runId);
            return print(out, runner(store, json).fork(Storage.graphOf(run, store), runId, from), json);
        }
    }

    @Command(
            name = "prune",
            mixinStandardHelpOptions = true,
            description = "Deletes finished runs older than DURATION.")
    static final class Prune extends RunsSubcommand {
        @Option(
                names = "--older-than",
                paramLabel = "DURATION",
                required = true,
                description = "e.g. 30d, 12h, 45m, 10s, or ISO-8601 (P7D).")
        String olderThan;

        @Override
        int call(RunStore store, PrintWriter out) {
            Duration age = duration(olderThan);
            int pruned = store.pruneRuns(Instant.now().minus(age));
            out.println("pruned " + pruned + " run" + (pruned == 1 ? "" : "s") + " that ended more than " + olderThan
                    + " ago");
            return ExitCodes.OK;
        }

        static Duration duration(String text) {
            String t = text.trim().toLowerCase(Locale.ROOT);
            try {
                if (t.startsWith("p")) {
                    return Duration.parse(t.toUpperCase(Locale.ROOT));
                }
                if (t.matches("\\d+[dhms]")) {
                    long n = Long.parseLong(t.substring(0, t.length() - 1));
                    return switch (t.charAt(t.length() - 1)) {
                        case 'd' -> Duration.ofDays(n);
                        case 'h' -> Duration.ofHours(n);
                        case 'm' -> Duration.ofMinutes(n);
                        default -> Duration.ofSeconds(n);
                    };
                }
            } catch (DateTimeParseException | NumberFormatException e) {
                // falls through to the error below
            }
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "--older-than " + text + ": not a duration (use 30d, 12h, 45m, 10s or ISO-8601 such as P7D)");
        }
    }
}
