package dev.weft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.llm.test.FakeModelServer;
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

            HttpResponse<String> page =
                    http.send(HttpRequest.newBuilder(base).build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> script = http.send(
                    HttpRequest.newBuilder(base.resolve("assets/app.js")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<script type=\"module\" src=\"/assets/app.js\">");
            assertThat(script.statusCode()).isEqualTo(200);
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

    @Test
    void aRunWhoseServerWasKilledIsRecoveredByTheNextAndItsStreamResumesFromLastEventId() throws Exception {
        Path home = Files.createTempDirectory("weft-home");
        Process keys = weft(home, "keys", "create", "--user", "dana");
        String key = new String(keys.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(keys.waitFor(60, TimeUnit.SECONDS)).isTrue();
        StringBuilder nodes = new StringBuilder("{\"id\": \"in\", \"type\": \"trigger\"}");
        StringBuilder connections = new StringBuilder();
        String previous = "in";
        for (int i = 1; i <= 8; i++) {
            nodes.append(", {\"id\": \"wait").append(i).append("\", \"type\": \"delay\", \"config\": {\"ms\": 400}}");
            connections
                    .append(connections.isEmpty() ? "" : ", ")
                    .append("{\"source\": \"")
                    .append(previous)
                    .append("\", \"target\": \"wait")
                    .append(i)
                    .append("\"}");
            previous = "wait" + i;
        }
        String workflow = "{\"id\": \"slow\", \"nodes\": [" + nodes + "], \"connections\": [" + connections + "]}";
        HttpClient http = HttpClient.newHttpClient();

        Process first = weft(home, "serve", "--port", "0");
        String runId;
        List<String> ids = new java.util.ArrayList<>();
        List<String> types = new java.util.ArrayList<>();
        try {
            URI base = listening(first);
            assertThat(send(http, base, key, "api/workflows", workflow).statusCode())
                    .isEqualTo(201);
            HttpResponse<String> started = send(http, base, key, "api/workflows/slow/runs", "{\"wait\": false}");
            assertThat(started.statusCode()).as(started.body()).isEqualTo(202);
            runId = Json.parse(started.body(), "started").path("runId").asText();
            try (BufferedReader stream = events(http, base, key, runId, null)) {
                int completed = 0;
                String line;
                while (completed < 2 && (line = stream.readLine()) != null) {
                    if (line.startsWith("id:")) {
                        ids.add(line.substring(3).strip());
                    } else if (line.startsWith("event:")) {
                        types.add(line.substring(6).strip());
                        completed += line.contains("step.completed") ? 1 : 0;
                    }
                }
                kill(first, "-KILL");
                assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
        } finally {
            first.destroyForcibly();
        }

        Process second = weft(home, "serve", "--port", "0");
        try {
            URI base = listening(second);
            String last = ids.get(ids.size() - 1);
            try (BufferedReader stream = events(http, base, key, runId, last)) {
                String line;
                while ((line = stream.readLine()) != null) {
                    if (line.startsWith("id:")) {
                        ids.add(line.substring(3).strip());
                    } else if (line.startsWith("event:")) {
                        types.add(line.substring(6).strip());
                    }
                }
            }
            JsonNode run = run(http, base, key, runId);
            assertThat(run.path("status").asText()).isEqualTo("COMPLETED");
            for (int i = 1; i <= 8; i++) {
                assertCompletedOnce(run, "wait" + i);
            }
            assertThat(types).contains("run.recovered");
            assertThat(types.get(types.size() - 1)).isEqualTo("run.completed");
            List<Long> sequence = ids.stream().map(Long::parseLong).toList();
            for (int i = 0; i < sequence.size(); i++) {
                assertThat(sequence.get(i))
                        .as("event ids without gaps or repeats")
                        .isEqualTo(i + 1L);
            }
            kill(second, "-TERM");
            assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            second.destroyForcibly();
        }
    }

    @Test
    void anAgentWorkflowApprovedOverHttpIsRecoveredByTheNextServerAfterTheFirstWasKilled() throws Exception {
        Path home = Files.createTempDirectory("weft-home");
        Process keys = weft(home, "keys", "create", "--user", "dana");
        String key = new String(keys.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(keys.waitFor(60, TimeUnit.SECONDS)).isTrue();
        StringBuilder nodes = new StringBuilder("{\"id\": \"in\", \"type\": \"trigger\"},"
                + " {\"id\": \"summarise\", \"type\": \"agent\", \"config\": {\"prompt\": {\"system\": \"Summarise"
                + " the message.\", \"user\": \"{{input.text}}\"}}},"
                + " {\"id\": \"check\", \"type\": \"approval\", \"config\": {\"message\": \"send it?\"}}");
        StringBuilder connections = new StringBuilder("{\"source\": \"in\", \"target\": \"summarise\"},"
                + " {\"source\": \"summarise\", \"target\": \"check\"}");
        String previous = "check";
        for (int i = 1; i <= 6; i++) {
            nodes.append(", {\"id\": \"wait").append(i).append("\", \"type\": \"delay\", \"config\": {\"ms\": 400}}");
            connections
                    .append(", {\"source\": \"")
                    .append(previous)
                    .append("\", \"target\": \"wait")
                    .append(i)
                    .append("\"}");
            previous = "wait" + i;
        }
        String workflow = "{\"id\": \"triage\", \"nodes\": [" + nodes + "], \"connections\": [" + connections + "]}";
        HttpClient http = HttpClient.newHttpClient();
        try (FakeModelServer model = FakeModelServer.start()) {
            model.enqueue(FakeModelServer.Reply.text("Checkout fails for everyone."));
            java.util.Map<String, String> env = java.util.Map.of(
                    "WEFT_MODEL", "openai:gpt-4o-mini",
                    "WEFT_MODEL_BASE_URL", model.openAiBaseUrl(),
                    "OPENAI_API_KEY", "sk-test");
            Process first = weft(home, env, "serve", "--port", "0");
            String runId;
            List<String> types = new java.util.ArrayList<>();
            try {
                URI base = listening(first);
                HttpResponse<String> created = send(http, base, key, "api/workflows", workflow);
                assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
                HttpResponse<String> started = send(
                        http, base, key, "api/workflows/triage/runs", "{\"input\": {\"text\": \"nobody can pay\"}}");
                JsonNode waiting = Json.parse(started.body(), "started");
                assertThat(waiting.path("status").asText()).as(started.body()).isEqualTo("WAITING");
                runId = waiting.path("runId").asText();
                http.sendAsync(
                        HttpRequest.newBuilder(base.resolve("api/runs/" + runId + "/approve"))
                                .header("Authorization", "Bearer " + key)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                try (BufferedReader stream = events(http, base, key, runId, null)) {
                    String line;
                    while ((line = stream.readLine()) != null) {
                        if (line.startsWith("data:") && line.contains("\"step.completed\"") && line.contains("wait1")) {
                            break;
                        }
                    }
                    kill(first, "-KILL");
                    assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
                }
            } finally {
                first.destroyForcibly();
            }

            Process second = weft(home, env, "serve", "--port", "0");
            try {
                URI base = listening(second);
                try (BufferedReader stream = events(http, base, key, runId, null)) {
                    String line;
                    while ((line = stream.readLine()) != null) {
                        if (line.startsWith("event:")) {
                            types.add(line.substring(6).strip());
                        }
                    }
                }
                JsonNode run = run(http, base, key, runId);
                assertThat(run.path("status").asText()).as("%s", run).isEqualTo("COMPLETED");
                assertThat(types).contains("run.recovered");
                for (String node : List.of("summarise", "check", "wait1", "wait6")) {
                    assertCompletedOnce(run, node);
                }
                assertThat(model.requests())
                        .as("the agent's answer is kept, not asked again")
                        .hasSize(1);
                kill(second, "-TERM");
                assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
            } finally {
                second.destroyForcibly();
            }
        }
    }

    private static JsonNode run(HttpClient http, URI base, String key, String runId) throws Exception {
        return Json.parse(
                http.send(
                                HttpRequest.newBuilder(base.resolve("api/runs/" + runId))
                                        .header("Authorization", "Bearer " + key)
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body(),
                "run");
    }

    private static void assertCompletedOnce(JsonNode run, String node) {
        assertThat(run.path("steps"))
                .filteredOn(step -> step.path("nodeId").asText().equals(node)
                        && step.path("status").asText().equals("COMPLETED"))
                .as(node)
                .hasSize(1);
    }

    private static URI listening(Process serve) throws java.io.IOException {
        BufferedReader lines =
                new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
        String first = lines.readLine();
        Matcher url = Pattern.compile("listening on (http://\\S+/)").matcher(first == null ? "" : first);
        assertThat(url.find()).as("first line: " + first).isTrue();
        return URI.create(url.group(1));
    }

    private static HttpResponse<String> send(HttpClient http, URI base, String key, String path, String json)
            throws Exception {
        return http.send(
                HttpRequest.newBuilder(base.resolve(path))
                        .header("Authorization", "Bearer " + key)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static BufferedReader events(HttpClient http, URI base, String key, String runId, String lastEventId)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve("api/runs/" + runId + "/events"))
                .header("Authorization", "Bearer " + key)
                .header("Accept", "text/event-stream");
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<java.io.InputStream> response =
                http.send(request.GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        return new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
    }

    private static void kill(Process process, String signal) throws Exception {
        assertThat(new ProcessBuilder("kill", signal, Long.toString(process.pid()))
                        .start()
                        .waitFor())
                .isZero();
    }

    private static Process weft(Path home, String... args) throws Exception {
        return weft(home, java.util.Map.of(), args);
    }

    private static Process weft(Path home, java.util.Map<String, String> env, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>();
        command.add(ROOT.resolve("bin/weft").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(ROOT.toFile());
        builder.environment().put("WEFT_HOME", home.toString());
        builder.environment().putAll(env);
        builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process process = builder.start();
        process.getOutputStream().close();
        return process;
    }
}
