package dev.weft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Runs {@code bin/weft} as a user would, against the packaged jar. */
final class LauncherIT {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private record Result(int exitCode, String out, String err) {}

    private static Result launch(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ROOT.resolve("bin/weft").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(ROOT.toFile());
        builder.environment()
                .put(
                        "WEFT_HOME",
                        java.nio.file.Files.createTempDirectory("weft-home").toString());
        Process process = builder.start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        byte[] err = process.getErrorStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(
                process.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    @Test
    void runsAnExampleWorkflowEndToEnd() throws Exception {
        Result result = launch(
                "workflow",
                "run",
                "examples/workflows/fan-out-join.json",
                "--input",
                "{\"city\": \"Haifa\", \"meetings\": [1]}",
                "--json");

        assertThat(result.exitCode()).as(result.err()).isZero();
        JsonNode json = Json.parse(result.out(), "weft output");
        assertThat(json.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(json.get("outputs").get("brief").get("text").asText()).isEqualTo("sunny in Haifa, 1 meetings");
    }

    @Test
    void reportsAnInvalidFileWithExitTwoAndNoStackTrace() throws Exception {
        Result result = launch("workflow", "run", "does-not-exist.json");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("weft: E_GRAPH_INVALID: does-not-exist.json: no such file");
        assertThat(result.err()).doesNotContain("Exception");
    }
}
