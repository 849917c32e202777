package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.Plan;
import dev.weft.plan.PlanMode;
import dev.weft.plan.PlanStep;
import dev.weft.store.Stores;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The offline planner against a corpus of English and Hebrew messages with their expected plans (seed
 * 000's four use cases among them): each step's capability, action and dependencies, and the
 * constraints the corpus names; and, through Memo in PREVIEW mode on SQLite, the concrete arguments
 * its resolvers give the tools where the corpus names them. The time is Tuesday 24 November 2026,
 * 10:00 in Jerusalem.
 */
final class OfflinePlannerCorpusTest {
    private static final ZonedDateTime NOW = ZonedDateTime.parse("2026-11-24T10:00:00+02:00[Asia/Jerusalem]");
    private static final OfflinePlanner PLANNER = new OfflinePlanner();

    /**
     * The planner's corpus ({@code planner.jsonl}, whose messages are also the second brain's
     * distractors in {@code MemoryRetrievalTest}) and the families of issue #27 ({@code families.jsonl}:
     * alarms, parts of the day, exceptions, lengths, spans, nudges, what Memo does not do, undo).
     */
    static Stream<JsonNode> corpus() throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        for (String file : List.of("/corpus/planner.jsonl", "/corpus/families.jsonl")) {
            try (InputStream in = OfflinePlannerCorpusTest.class.getResourceAsStream(file)) {
                for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    if (!line.isBlank()) {
                        lines.add(Json.parse(line, "corpus line"));
                    }
                }
            }
        }
        return lines.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void plansTheMessageAsExpected(JsonNode entry) {
        String message = entry.get("message").asText();
        Plan plan = PLANNER.plan(message, new Planner.Context(dev.weft.language.Language.codeOf(message), NOW));

        JsonNode expected = entry.get("expect");
        assertThat(plan.steps()).as(message).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            PlanStep step = plan.steps().get(i);
            JsonNode want = expected.get(i);
            assertThat(step.capability() + "/" + step.action())
                    .as(message)
                    .isEqualTo(want.get("capability").asText() + "/"
                            + want.get("action").asText());
            List<String> deps = new ArrayList<>();
            want.get("dependsOn").forEach(d -> deps.add(d.asText()));
            assertThat(step.dependsOn())
                    .as(message + ": dependsOn of " + step.id())
                    .isEqualTo(deps);
            want.path("constraints")
                    .properties()
                    .forEach(e -> assertThat(step.constraints().get(e.getKey()))
                            .as(message + ": " + e.getKey())
                            .isEqualTo(e.getValue()));
            want.path("changes")
                    .properties()
                    .forEach(e -> assertThat(step.changes().get(e.getKey()))
                            .as(message + ": changes." + e.getKey())
                            .isEqualTo(e.getValue()));
        }
    }

    @org.junit.jupiter.api.Test
    void anHourSaidAloneThatFallsInTheSmallHours_isReadInTheAfternoon() {
        ZonedDateTime afternoon = NOW.withHour(16);
        java.util.function.Function<String, String> due = message -> PLANNER.plan(
                        message, new Planner.Context(dev.weft.language.Language.codeOf(message), afternoon))
                .steps()
                .get(0)
                .constraints()
                .path("dueDate")
                .asText();

        assertThat(due.apply("remind me at 3 to call Dana")).isEqualTo("2026-11-25T15:00:00+02:00");
        assertThat(due.apply("תזכיר לי ב-3 להתקשר לדנה")).isEqualTo("2026-11-25T15:00:00+02:00");
        assertThat(due.apply("remind me at 5:30 to leave")).isEqualTo("2026-11-24T17:30:00+02:00");
        assertThat(due.apply("remind me at 3am to take the pill")).isEqualTo("2026-11-25T03:00:00+02:00");
        assertThat(due.apply("remind me at 03:00 to check the oven")).isEqualTo("2026-11-25T03:00:00+02:00");
        assertThat(due.apply("remind me at 9 to call Dana")).isEqualTo("2026-11-24T21:00:00+02:00");
    }

    @TempDir
    static Path dir;

    private static RunStore store;
    private static Memo memo;
    private static Runner runner;
    private static final AtomicInteger USERS = new AtomicInteger();

    @BeforeAll
    static void open() {
        store = Stores.open("sqlite:" + dir.resolve("corpus.db"));
        memo = Memo.open(store);
        runner = Runner.builder()
                .store(store)
                .time(new TimeSource() {
                    @Override
                    public Instant now() {
                        return NOW.toInstant();
                    }

                    @Override
                    public void sleep(Duration duration) {}
                })
                .build();
    }

    @AfterAll
    static void close() {
        store.close();
    }

    static Stream<JsonNode> resolvedCorpus() throws IOException {
        return corpus().filter(entry -> entry.has("resolved"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("resolvedCorpus")
    void resolvesTheArgumentsInPreview(JsonNode entry) {
        String message = entry.get("message").asText();
        Memo.Reply reply = memo.ask(
                runner,
                new Memo.Request(
                        "corpus-" + USERS.incrementAndGet(), message, Optional.of(NOW.getZone()), PlanMode.PREVIEW));

        Map<String, JsonNode> resolved = new LinkedHashMap<>();
        reply.json()
                .get("resolutions")
                .forEach(r -> resolved.put(r.get("stepId").asText(), r));
        for (JsonNode want : entry.get("resolved")) {
            JsonNode got = resolved.get(want.get("stepId").asText());
            assertThat(got).as(message + ": step " + want.get("stepId")).isNotNull();
            assertThat(got.path("type").asText()).as(message).isEqualTo("execute");
            assertThat(got.get("functionName")).as(message).isEqualTo(want.get("functionName"));
            assertThat(got.get("args")).as(message + ": args").isEqualTo(want.get("args"));
        }
    }
}
