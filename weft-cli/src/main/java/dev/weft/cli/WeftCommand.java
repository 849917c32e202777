package dev.weft.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.store.SecretKeyException;
import dev.weft.store.SecretKeySource;
import java.io.PrintWriter;
import java.util.Arrays;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The top-level {@code weft} command. */
@Command(
        name = "weft",
        mixinStandardHelpOptions = true,
        versionProvider = WeftCommand.Version.class,
        description = "Weft: a runtime for dependable LLM agents.",
        subcommands = {
            ChatCommand.class,
            MemoCommand.class,
            ConciergeCommand.class,
            WorkflowCommand.class,
            RunsCommand.class,
            TimeCommand.class,
            ModelsCommand.class,
            ServeCommand.class,
            KeysCommand.class,
            MailflowCommand.class,
            McpCommand.class,
            AgentsCommand.class,
            ChannelsCommand.class,
            WorkerCommand.class,
            SecretsCommand.class
        })
public final class WeftCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The command line with Weft's handlers: usage errors exit 2, and print JSON when {@code --json} was asked. */
    public static CommandLine commandLine() {
        return commandLine(System.getenv());
    }

    /** The command line, reading {@code env} instead of the process environment (for tests). */
    public static CommandLine commandLine(java.util.Map<String, String> env) {
        Env.use(env);
        CommandLine commandLine = new CommandLine(new WeftCommand());
        commandLine.setParameterExceptionHandler(WeftCommand::usageError);
        commandLine.setExecutionStrategy(WeftCommand::withSecretKeyChecked);
        return commandLine;
    }

    /**
     * Runs the command asked for, once the deployment's key for stored secrets ({@code WEFT_SECRET_KEY}
     * or {@code WEFT_SECRET_KEY_FILE}), when one is set, is a key: every command refuses to start with a
     * bad one, rather than fail later on the first secret, or make a key of its own.
     */
    private static int withSecretKeyChecked(CommandLine.ParseResult parsed) {
        boolean helpOnly = parsed.asCommandLineList().stream()
                .anyMatch(c -> c.isUsageHelpRequested() || c.isVersionHelpRequested());
        if (!helpOnly) {
            try {
                SecretKeySource.fromEnvironment(Env.get()::get, Storage.mailKey());
            } catch (SecretKeyException e) {
                CommandLine command = parsed.commandSpec().commandLine();
                if (parsed.originalArgs().contains("--json")) {
                    PrintWriter out = command.getOut();
                    out.println(Json.write(invalid(e.code(), e.getMessage())));
                    out.flush();
                } else {
                    PrintWriter err = command.getErr();
                    err.println("weft: " + e.code() + ": " + e.getMessage());
                    err.flush();
                }
                return ExitCodes.INVALID;
            }
        }
        return new CommandLine.RunLast().execute(parsed);
    }

    private static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        if (Arrays.asList(args).contains("--json")) {
            PrintWriter out = command.getOut();
            out.println(Json.write(invalid(ErrorCode.E_GRAPH_INVALID, e.getMessage())));
            out.flush();
        } else {
            PrintWriter err = command.getErr();
            err.println("weft: " + e.getMessage());
            err.println("Try '" + command.getCommandSpec().qualifiedName() + " --help' for more.");
            err.flush();
        }
        return ExitCodes.INVALID;
    }

    static ObjectNode invalid(ErrorCode code, String message) {
        ObjectNode root = Json.object();
        root.put("status", "INVALID");
        ObjectNode error = root.putObject("error");
        error.put("code", code.name());
        error.put("message", message);
        return root;
    }

    /** Reads the version from the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = WeftCommand.class.getPackage().getImplementationVersion();
            return new String[] {"weft " + (version == null ? "development build" : version)};
        }
    }
}
