package dev.weft.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.Run;
import dev.weft.core.spi.RunStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;

/** {@code workflow run --detach}: the same command in a background process, whose run id is printed. */
final class Detached {
    private Detached() {}

    static int start(CommandLine.Model.CommandSpec spec, RunStore store, String runId, boolean json) {
        List<String> args =
                new ArrayList<>(spec.root().commandLine().getParseResult().originalArgs());
        args.removeIf("--detach"::equals);
        int existing = args.indexOf("--run-id");
        if (existing >= 0) {
            args.remove(existing + 1);
            args.remove(existing);
        }
        args.add("--run-id");
        args.add(runId);
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        if (Runtime.version().feature() >= 24) {
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Main.class.getName());
        command.addAll(args);
        Path log = home().resolve("logs").resolve(runId + ".log");
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            builder.environment().putAll(Env.get());
            builder.start();
        } catch (IOException e) {
            spec.commandLine().getErr().println("weft: could not start the background process: " + e.getMessage());
            return ExitCodes.FAILED;
        }
        Optional<Run> run = Optional.empty();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (run.isEmpty() && System.nanoTime() < deadline) {
            run = store.findRun(runId);
            if (run.isEmpty()) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (run.isEmpty()) {
            spec.commandLine().getErr().println("weft: the background run did not start; see " + log);
            return ExitCodes.FAILED;
        }
        if (json) {
            ObjectNode node = Json.object();
            node.put("runId", runId);
            node.put("status", run.get().status().name());
            node.put("log", log.toString());
            out.println(Json.write(node));
        } else {
            out.println(runId);
        }
        out.flush();
        return ExitCodes.OK;
    }

    static Path home() {
        String home = Env.get().get("WEFT_HOME");
        return home != null && !home.isBlank() ? Path.of(home) : Path.of(System.getProperty("user.home"), ".weft");
    }
}
