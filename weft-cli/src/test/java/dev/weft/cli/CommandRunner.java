package dev.weft.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the weft command in-process and captures what it prints. */
final class CommandRunner {
    record Outcome(int exitCode, String out, String err) {
        JsonNode json() {
            return Json.parse(out, "command output");
        }
    }

    private CommandRunner() {}

    /** Where the commands keep their default store during tests: never the user's own ~/.weft. */
    static final java.nio.file.Path HOME = home();

    private static java.nio.file.Path home() {
        try {
            java.nio.file.Path home = java.nio.file.Files.createTempDirectory("weft-home");
            home.toFile().deleteOnExit();
            return home;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static Outcome weft(String... args) {
        return weftWith(java.util.Map.of(), args);
    }

    /** Runs the command with {@code env} added to the test environment. */
    static Outcome weftWith(java.util.Map<String, String> env, String... args) {
        java.util.Map<String, String> all = new java.util.HashMap<>(env);
        all.put("WEFT_HOME", HOME.toString());
        CommandLine commandLine = WeftCommand.commandLine(all);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int code = commandLine.execute(args);
        return new Outcome(code, out.toString(), err.toString());
    }
}
