package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.assistant.Assistant;
import dev.weft.assistant.Assistants;
import dev.weft.assistant.Message;
import dev.weft.assistant.Turn;
import dev.weft.core.Graph;
import dev.weft.core.Json;
import dev.weft.core.NodeResult;
import dev.weft.core.Run;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.plan.ToolRegistry;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streamed turn follows the run of the turn it answers: with two runs of one user waiting, each in a
 * conversation of its own, a message to one conversation streams the words of that conversation's run,
 * never the other's — on {@code /v1/chat/completions} and {@code /v1/responses} alike. The assistant is
 * the test's own: each conversation's first message starts a run that asks something and waits; the
 * next continues it; every run says its words as a model's deltas would come.
 */
final class StreamFollowsItsOwnRunTest {
    @TempDir
    Path dir;

    private ServerFixture fixture;

    @BeforeEach
    void start() {
        fixture = new ServerFixture(dir, builder -> builder.assistants(Assistants.of(new Waiter())));
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void aStreamedCompletionFollowsTheWaitingRunOfItsOwnConversation() {
        ask("kitchen", "paint it");
        ask("garden", "plant it");

        String streamed = streamedCompletion("garden", "yes");

        assertThat(streamed).startsWith("continued garden: yes").doesNotContain("kitchen");
    }

    @Test
    void aStreamedResponseFollowsTheWaitingRunOfItsOwnConversation() {
        ask("kitchen", "paint it");
        ask("garden", "plant it");

        String events = fixture.raw(fixture.request("v1/responses", Optional.of(fixture.dana))
                        .header("Content-Type", "application/json")
                        .header("X-Weft-Session", "kitchen")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"model\": \"waiter\", \"stream\": true, \"input\": \"yes\"}"))
                        .build())
                .body();

        assertThat(deltas(events, "response.output_text.delta"))
                .startsWith("continued kitchen: yes")
                .doesNotContain("garden");
    }

    @Test
    void aMessageThatStartsARunStreamsThatRunAloneWhileOthersWait() {
        ask("kitchen", "paint it");

        String streamed = streamedCompletion("hall", "sweep it");

        assertThat(streamed).startsWith("asked hall: sweep it").doesNotContain("kitchen");
    }

    private void ask(String session, String text) {
        ServerFixture.Answer answer = fixture.send(fixture.request("v1/chat/completions", Optional.of(fixture.dana))
                .header("Content-Type", "application/json")
                .header("X-Weft-Session", session)
                .POST(HttpRequest.BodyPublishers.ofString(body(false, text)))
                .build());
        assertThat(answer.status()).as(answer.body().toString()).isEqualTo(200);
    }

    private String streamedCompletion(String session, String text) {
        String events = fixture.raw(fixture.request("v1/chat/completions", Optional.of(fixture.dana))
                        .header("Content-Type", "application/json")
                        .header("X-Weft-Session", session)
                        .POST(HttpRequest.BodyPublishers.ofString(body(true, text)))
                        .build())
                .body();
        StringBuilder content = new StringBuilder();
        for (String line : events.split("\n")) {
            if (line.startsWith("data: {")) {
                content.append(Json.parse(line.substring(6), "an event")
                        .path("choices")
                        .path(0)
                        .path("delta")
                        .path("content")
                        .asText(""));
            }
        }
        return content.toString();
    }

    private static String deltas(String events, String type) {
        StringBuilder text = new StringBuilder();
        for (String line : events.split("\n")) {
            if (line.startsWith("data: {")) {
                JsonNode event = Json.parse(line.substring(6), "an event");
                if (event.path("type").asText().equals(type)) {
                    text.append(event.path("delta").asText());
                }
            }
        }
        return text.toString();
    }

    private static String body(boolean stream, String text) {
        return "{\"model\": \"waiter\", \"stream\": " + stream + ", \"messages\": [{\"role\": \"user\", \"content\": "
                + Json.write(Json.mapper().getNodeFactory().textNode(text)) + "}]}";
    }

    /**
     * An assistant whose every conversation waits: the first message starts a run that says it asked and
     * waits, the next continues that run, which says so and ends. Its words come as a model's deltas.
     */
    private static final class Waiter implements Assistant {
        private static final String DELTA = "assistant.delta";

        /** The waiting run of each conversation, by user and session. */
        private final Map<String, String> waiting = new ConcurrentHashMap<>();

        private final Graph graph = Graph.builder("waiter")
                .node("turn", context -> {
                    String session = context.runInput().path("session").asText();
                    Optional<JsonNode> answer = context.resumeValue();
                    if (answer.isEmpty()) {
                        say(
                                context,
                                "asked " + session + ": "
                                        + context.runInput().path("text").asText());
                        return NodeResult.interrupt(Json.object().put("question", "shall I?"));
                    }
                    say(
                            context,
                            "continued " + session + ": "
                                    + answer.get().path("text").asText());
                    return NodeResult.output(Json.object().put("done", true));
                })
                .edge(Graph.START, "turn")
                .compile();

        private static void say(dev.weft.core.NodeContext context, String words) {
            context.emit(DELTA, Json.object().put("source", "model").put("text", words));
        }

        @Override
        public String name() {
            return "waiter";
        }

        @Override
        public String description() {
            return "waits in every conversation";
        }

        @Override
        public Turn converse(Runner runner, Message message) {
            String key = message.user() + "/" + message.session();
            String continued = waiting.remove(key);
            RunResult run = continued != null
                    ? runner.resume(graph, continued, Json.object().put("text", message.text()))
                    : runner.run(
                            graph,
                            RunRequest.builder()
                                    .runId(message.runId().orElseGet(dev.weft.core.RunIds::next))
                                    .user(message.user())
                                    .input(Json.object()
                                            .put("session", message.session())
                                            .put("text", message.text()))
                                    .build());
            if (run.status() == RunStatus.WAITING) {
                waiting.put(key, run.runId());
            }
            // The reply names no conversation: the words of the stream are what say which run it followed.
            return new Turn("en", run, "done", Json.object().put("reply", "done"), Turn.Usage.NONE);
        }

        @Override
        public Optional<String> continues(Runner runner, String user, String session) {
            return Optional.ofNullable(waiting.get(user + "/" + session));
        }

        @Override
        public Turn approve(Runner runner, String user, String runId, List<String> steps) {
            throw new UnsupportedOperationException("the waiter is continued in words");
        }

        @Override
        public Turn reject(Runner runner, String user, String runId) {
            throw new UnsupportedOperationException("the waiter is continued in words");
        }

        @Override
        public Turn answer(Runner runner, String user, String runId, String text) {
            throw new UnsupportedOperationException("the waiter is continued in words");
        }

        @Override
        public ToolRegistry tools() {
            return ToolRegistry.of();
        }

        @Override
        public boolean owns(Run run) {
            return run.graphId().equals("waiter");
        }

        @Override
        public Optional<Graph> graphOf(Run run) {
            return owns(run) ? Optional.of(graph) : Optional.empty();
        }
    }
}
