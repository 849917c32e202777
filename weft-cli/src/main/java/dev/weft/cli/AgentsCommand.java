package dev.weft.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.workflow.A2aAgents;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code weft agents}: the remote A2A agents the assistants may ask ({@code a2a.send}), kept in {@code
 * $WEFT_HOME/agents.json} ({@code add}, {@code list}, {@code remove}). A key is never written or printed:
 * only the name of the setting that holds it.
 */
@Command(
        name = "agents",
        mixinStandardHelpOptions = true,
        description = "The remote A2A agents the assistants may ask: 'add', 'list' and 'remove' keep them in"
                + " $WEFT_HOME/agents.json (WEFT_A2A_AGENTS adds more).",
        subcommands = {AgentsCommand.Add.class, AgentsCommand.ListAgents.class, AgentsCommand.Remove.class})
final class AgentsCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return ExitCodes.OK;
    }

    static Path file() {
        return Detached.home().resolve(A2aAgents.FILE);
    }

    /** What each subcommand does with the agents, its errors reported with their codes. */
    abstract static class Step implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        abstract boolean json();

        abstract int call(PrintWriter out);

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            try {
                int code = call(out);
                out.flush();
                return code;
            } catch (WeftException e) {
                return WorkflowCommand.failure(spec, json(), e);
            }
        }
    }

    /** {@code weft agents add NAME URL [--key-env VAR] [--risk high|low] [--says WORDS]…}. */
    @Command(
            name = "add",
            mixinStandardHelpOptions = true,
            description = "Configures a remote A2A agent the assistants may ask (a plan step a2a.send); adding a"
                    + " name again replaces it.")
    static final class Add extends Step {
        @Parameters(index = "0", paramLabel = "NAME", description = "letters, digits, '_', '.' or '-'.")
        String name;

        @Parameters(index = "1", paramLabel = "URL", description = "The agent's URL or its card's (http or https).")
        String url;

        @Option(
                names = "--key-env",
                paramLabel = "VAR",
                description = "The setting (environment variable) holding the agent's bearer key; the key is"
                        + " read from it when a message is sent, never stored.")
        String keyEnv;

        @Option(
                names = "--risk",
                paramLabel = "high|low",
                description =
                        "high (the default): each message waits for a person's yes; low: the agent only" + " answers.")
        String risk;

        @Option(
                names = "--says",
                paramLabel = "WORDS",
                description = "Words a person calls the agent by besides its name ('travel agent', 'סוכן"
                        + " הנסיעות'); repeatable.")
        List<String> says = new ArrayList<>();

        @Override
        boolean json() {
            return false;
        }

        @Override
        int call(PrintWriter out) {
            A2aAgents.Entry entry =
                    A2aAgents.entry(name, url, Optional.ofNullable(keyEnv), Optional.ofNullable(risk), says);
            A2aAgents.readFile(file()).with(entry).writeFile(file());
            out.println("Added A2A agent '" + name + "': " + entry.agent().card()
                    + entry.agent()
                            .tokenEnv()
                            .map(env -> " (key from " + env + ")")
                            .orElse("") + ", risk "
                    + entry.agent().risk().name().toLowerCase(java.util.Locale.ROOT));
            return ExitCodes.OK;
        }
    }

    /** {@code weft agents list [--json]}. */
    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "The configured A2A agents, of agents.json and WEFT_A2A_AGENTS (keys never shown).")
    static final class ListAgents extends Step {
        @Option(
                names = "--json",
                description = "One JSON object: {\"agents\": [{\"name\", \"url\", \"keyEnv\"?, \"risk\", \"says\"}]}.")
        boolean json;

        @Override
        boolean json() {
            return json;
        }

        @Override
        int call(PrintWriter out) {
            A2aAgents agents = A2aAgents.load(Detached.home(), Env.get());
            if (json) {
                ObjectNode root = Json.object();
                ArrayNode list = root.putArray("agents");
                agents.entries().forEach(e -> list.add(A2aAgents.toJson(e)));
                out.println(Json.write(root));
            } else if (agents.isEmpty()) {
                out.println("No A2A agents. Add one: weft agents add NAME URL --key-env VAR");
            } else {
                for (A2aAgents.Entry e : agents.entries()) {
                    out.println(e.agent().name() + "  " + e.agent().card()
                            + e.agent().tokenEnv().map(env -> "  key: " + env).orElse("")
                            + "  risk: " + e.agent().risk().name().toLowerCase(java.util.Locale.ROOT)
                            + (e.says().isEmpty() ? "" : "  says: " + String.join(", ", e.says())));
                }
            }
            return ExitCodes.OK;
        }
    }

    /** {@code weft agents remove NAME}. */
    @Command(name = "remove", mixinStandardHelpOptions = true, description = "Forgets a configured A2A agent.")
    static final class Remove extends Step {
        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Override
        boolean json() {
            return false;
        }

        @Override
        int call(PrintWriter out) {
            A2aAgents agents = A2aAgents.readFile(file());
            if (agents.find(name).isEmpty()) {
                throw new dev.weft.core.NotFoundException(
                        "no A2A agent '" + name + "' is in " + file() + " ('weft agents list' shows those there are)");
            }
            agents.without(name).writeFile(file());
            out.println("Removed A2A agent '" + name + "'.");
            return ExitCodes.OK;
        }
    }
}
