package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code /api/workflows}: check, upload, list and run workflows, each user their own. */
final class WorkflowsApiTest {
    @TempDir
    Path dir;

    private ServerFixture fixture;
    private String approval;

    @BeforeEach
    void start() throws IOException {
        fixture = new ServerFixture(dir);
        approval = Files.readString(Path.of("../examples/workflows/approval.json"));
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void checksAWorkflowAndListsEveryProblem() {
        JsonNode valid =
                fixture.post("api/workflows/check", fixture.dana, approval).body();
        JsonNode broken = fixture.post(
                        "api/workflows/check",
                        fixture.dana,
                        "{\"id\": \"x\", \"nodes\": [{\"id\": \"in\", \"type\": \"trigger\"},"
                                + " {\"id\": \"lost\", \"type\": \"nonsense\"}], \"connections\": []}")
                .body();

        assertThat(valid.path("valid").asBoolean()).isTrue();
        assertThat(valid.path("id").asText()).isEqualTo("refund-approval");
        assertThat(valid.path("nodes").asInt()).isEqualTo(4);
        assertThat(broken.path("valid").asBoolean()).isFalse();
        assertThat(broken.path("problems").toString()).contains("nonsense");
    }

    @Test
    void uploadsAWorkflowUnderItsIdForTheCallerOnly() {
        ServerFixture.Answer created = fixture.post("api/workflows", fixture.dana, approval);
        ServerFixture.Answer replaced = fixture.post("api/workflows", fixture.dana, approval);
        ServerFixture.Answer invalid = fixture.post("api/workflows", fixture.dana, "{\"id\": \"x\"}");

        assertThat(created.status()).isEqualTo(201);
        assertThat(replaced.status()).isEqualTo(200);
        assertThat(replaced.body().path("created").asBoolean()).isFalse();
        assertThat(invalid.status()).isEqualTo(400);
        assertThat(invalid.code()).isEqualTo("E_GRAPH_INVALID");
        assertThat(fixture.get("api/workflows", fixture.dana).body().path("workflows"))
                .extracting(w -> w.path("id").asText())
                .containsExactly("refund-approval");
        assertThat(fixture.get("api/workflows/refund-approval", fixture.dana)
                        .body()
                        .path("definition")
                        .path("nodes"))
                .hasSize(4);
        assertThat(fixture.get("api/workflows", fixture.omer).body().path("workflows"))
                .isEmpty();
        for (ServerFixture.Answer answer : List.of(
                fixture.get("api/workflows/refund-approval", fixture.omer),
                fixture.post("api/workflows/refund-approval/runs", fixture.omer, "{}"))) {
            assertThat(answer.status()).isEqualTo(404);
            assertThat(answer.code()).isEqualTo("E_NOT_FOUND");
        }
    }

    @Test
    void runsAStoredWorkflowAndItsApprovalIsResumedThroughTheRunsApi() {
        fixture.post("api/workflows", fixture.dana, approval);

        JsonNode small = fixture.post(
                        "api/workflows/refund-approval/runs", fixture.dana, "{\"input\": {\"amount\": 5}}")
                .body();
        JsonNode big = fixture.post(
                        "api/workflows/refund-approval/runs", fixture.dana, "{\"input\": {\"amount\": 150}}")
                .body();
        JsonNode resumed = fixture.post(
                        "api/runs/" + big.path("runId").asText() + "/resume",
                        fixture.dana,
                        "{\"input\": {\"by\": \"maya\"}}")
                .body();

        assertThat(small.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(small.path("user").asText()).isEqualTo("dana");
        assertThat(small.path("outputs").path("refund").path("approvedBy").asText())
                .isEqualTo("auto");
        assertThat(big.path("status").asText()).isEqualTo("WAITING");
        assertThat(resumed.path("outputs").path("refund").path("approvedBy").asText())
                .isEqualTo("maya");
        assertThat(fixture.post("api/workflows/refund-approval/runs", fixture.dana, "{\"inputs\": {}}")
                        .code())
                .isEqualTo("E_BAD_INPUT");
    }

    @Test
    void aDetachedRunAnswersAtOnceAndIsFollowedThroughItsEvents() throws Exception {
        fixture.post("api/workflows", fixture.dana, approval);

        ServerFixture.Answer started = fixture.post(
                "api/workflows/refund-approval/runs", fixture.dana, "{\"input\": {\"amount\": 5}, \"wait\": false}");
        String runId = started.body().path("runId").asText();

        assertThat(started.status()).isEqualTo(202);
        assertThat(started.body().path("events").asText()).isEqualTo("/api/runs/" + runId + "/events");
        long deadline = System.nanoTime() + 10_000_000_000L;
        String status = "";
        while (!status.equals("COMPLETED") && System.nanoTime() < deadline) {
            status = fixture.get("api/runs/" + runId, fixture.dana)
                    .body()
                    .path("status")
                    .asText();
            Thread.sleep(10);
        }
        assertThat(status).isEqualTo("COMPLETED");
    }
}
