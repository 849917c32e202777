package dev.weft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code bin/weft serve} as a user runs it: a key, the server, a chat completion, then SIGTERM. */
final class ServeIT {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void servesMemoOverTheOpenAiProtocolAndStopsCleanlyOnSigterm() throws Exception {
        Path home = Files.createTempDirectory("weft-home");
        Process keys = weft(home, "keys", "create", "--user", "dana", "--json");
        String out = new String(keys.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keys.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String key = Json.parse(out, "keys create").path("key").asText();

        Process serve = weft(home, "serve", "--port", "0");
        try {
            BufferedReader lines =
                    new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
            String first = lines.readLine();
            Matcher url = Pattern.compile("listening on (http://\\S+/)").matcher(first == null ? "" : first);
            assertThat(url.find()).as("first line: " + first).isTrue();
            URI base = URI.create(url.group(1));
            HttpClient http = HttpClient.newHttpClient();

            HttpResponse<String> health = http.send(
                    HttpRequest.newBuilder(base.resolve("healthz")).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> chat = http.send(
                    HttpRequest.newBuilder(base.resolve("v1/chat/completions"))
                            .header("Authorization", "Bearer " + key)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"model\": \"memo\", \"messages\": [{\"role\": \"user\", \"content\":"
                                            + " \"remind me tomorrow at 9 to call the bank\"}]}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));

            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(chat.statusCode()).as(chat.body()).isEqualTo(200);
            JsonNode reply = Json.parse(chat.body(), "chat");
            assertThat(reply.path("choices")
                            .get(0)
                            .path("message")
                            .path("content")
                            .asText())
                    .startsWith("I'll remind you: \"call the bank\"");

            // Process.destroy would close our end of its output; a plain SIGTERM leaves it to be read.
            assertThat(new ProcessBuilder("kill", "-TERM", Long.toString(serve.pid()))
                            .start()
                            .waitFor())
                    .isZero();
            assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String rest = String.join("\n", lines.lines().toList());
            assertThat(rest).contains("weft serve: stopped");
            assertThat(serve.exitValue()).isEqualTo(143);
        } finally {
            serve.destroyForcibly();
        }
    }

    private static Process weft(Path home, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>();
        command.add(ROOT.resolve("bin/weft").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(ROOT.toFile());
        builder.environment().put("WEFT_HOME", home.toString());
        builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process process = builder.start();
        process.getOutputStream().close();
        return process;
    }
}
