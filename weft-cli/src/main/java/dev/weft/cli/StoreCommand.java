package dev.weft.cli;

import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * A subcommand that works on the store: opens it ({@code --db}, else the environment's), runs, and
 * reports a {@link WeftException} as every command does (exit 2, JSON with {@code --json}).
 */
abstract class StoreCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--db",
            paramLabel = "URL",
            description = "sqlite:PATH or jdbc:postgresql://… (default: WEFT_DB,"
                    + " else SQLite under WEFT_HOME or ~/.weft).")
    String db;

    /** Whether {@code --json} was asked (each command says what it prints). */
    abstract boolean json();

    abstract int call(RunStore store, PrintWriter out);

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (RunStore store = Storage.open(db)) {
            int code = call(store, out);
            out.flush();
            return code;
        } catch (WeftException e) {
            return WorkflowCommand.failure(spec, json(), e);
        }
    }
}
