package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.Notifications;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code /api/memo}: Memo as the key's user, and only that user's data. */
final class MemoApiTest {
    @TempDir
    Path dir;

    private ServerFixture fixture;

    @BeforeEach
    void start() {
        fixture = new ServerFixture(dir);
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void aMessageIsAnsweredAsMemoAskJsonForTheKeysUser() {
        JsonNode reply = fixture.ask(fixture.dana, "remind me tomorrow at 9 to call the bank");

        assertThat(reply.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(reply.path("language").asText()).isEqualTo("en");
        assertThat(reply.path("reply").asText()).startsWith("I'll remind you: \"call the bank\"");
        assertThat(reply.path("plan").isObject()).isTrue();
        assertThat(fixture.get("api/runs/" + reply.path("runId").asText(), fixture.dana)
                        .body()
                        .path("user")
                        .asText())
                .isEqualTo("dana");
    }

    @Test
    void aWaitingRunShowsTheSentenceItsApprovalAsksInBesideTheCallInTheUsersLanguage() {
        fixture.ask(fixture.dana, "remind me tomorrow at 9 to call the bank");
        fixture.ask(fixture.omer, "תזכיר לי מחר ב-9 להשקות את העציצים");
        String english = fixture.ask(fixture.dana, "delete all my reminders")
                .path("runId")
                .asText();
        String hebrew =
                fixture.ask(fixture.omer, "תמחק את כל התזכורות").path("runId").asText();

        JsonNode waits = fixture.get("api/runs/" + english, fixture.dana).body().path("interrupts");
        JsonNode waitsInHebrew =
                fixture.get("api/runs/" + hebrew, fixture.omer).body().path("interrupts");

        assertThat(waits.size()).isEqualTo(1);
        JsonNode approval = waits.elements().next();
        assertThat(approval.path("says").asText())
                .isEqualTo("This will delete your reminder \"call the bank\". Shall I go ahead? (yes/no)");
        assertThat(approval.path("language").asText()).isEqualTo("en");
        // The call stays beside the words, for the page's details.
        assertThat(approval.path("tool").asText()).isEqualTo("taskOperations");
        assertThat(approval.path("args").path("operation").asText()).isEqualTo("deleteAll");
        JsonNode inHebrew = waitsInHebrew.elements().next();
        assertThat(inHebrew.path("says").asText()).contains("למחוק", "להשקות את העציצים");
        assertThat(inHebrew.path("language").asText()).isEqualTo("he");
        assertThat(fixture.get("api/runs/" + hebrew, fixture.dana).status()).isEqualTo(404);
    }

    @Test
    void aStreamedMessageShowsTheRunsProgressThenTheReply() throws Exception {
        HttpResponse<InputStream> stream = fixture.http.send(
                fixture.request("api/memo/messages", Optional.of(fixture.dana))
                        .header("Accept", "text/event-stream")
                        .header("Content-Type", "application/json")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                                "{\"message\": \"remind me tomorrow at 9 to call the bank and also what are my"
                                        + " tasks?\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        java.util.List<RunsApiTest.Sse> events = new java.util.ArrayList<>();
        try (RunsApiTest.SseReader reader = new RunsApiTest.SseReader(
                new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8)))) {
            for (Optional<RunsApiTest.Sse> next = reader.next(); next.isPresent(); next = reader.next()) {
                events.add(next.get());
            }
        }

        assertThat(events.get(0).event()).isEqualTo("run.started");
        assertThat(events).extracting(RunsApiTest.Sse::event).contains("tool.called", "run.completed");
        RunsApiTest.Sse last = events.get(events.size() - 1);
        assertThat(last.event()).isEqualTo("reply");
        JsonNode reply = Json.parse(last.data(), "reply");
        assertThat(reply.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(reply.path("reply").asText()).contains("call the bank");
        assertThat(Json.parse(events.get(0).data(), "event").path("sequence").asLong())
                .isEqualTo(1);
    }

    @Test
    void aPreviewActsOnNothingAndABadModeOrZoneIsRefused() {
        ServerFixture.Answer preview = fixture.post(
                "api/memo/messages",
                fixture.dana,
                "{\"message\": \"remind me tomorrow at 9 to call the bank\", \"mode\": \"preview\","
                        + " \"tz\": \"Asia/Jerusalem\"}");
        ServerFixture.Answer badMode =
                fixture.post("api/memo/messages", fixture.dana, "{\"message\": \"hi\", \"mode\": \"maybe\"}");
        ServerFixture.Answer badZone =
                fixture.post("api/memo/messages", fixture.dana, "{\"message\": \"hi\", \"tz\": \"Mars/Base\"}");

        assertThat(preview.status()).isEqualTo(200);
        assertThat(fixture.get("api/memo/tasks", fixture.dana).body().path("tasks"))
                .isEmpty();
        assertThat(badMode.code()).isEqualTo("E_BAD_INPUT");
        assertThat(badZone.code()).isEqualTo("E_BAD_INPUT");
    }

    @Test
    void eachUserSeesOnlyTheirOwnTasksListsEventsAndReminders() {
        fixture.ask(fixture.dana, "remind me tomorrow at 9 to call the bank");
        fixture.ask(fixture.dana, "צור רשימת קניות עם חלב, ביצים ולחם");
        fixture.ask(fixture.dana, "schedule a meeting with Omer tomorrow at 3pm");

        for (String route : new String[] {"tasks", "lists", "events"}) {
            assertThat(fixture.get("api/memo/" + route, fixture.dana).body().path(route))
                    .as(route)
                    .hasSize(1);
            assertThat(fixture.get("api/memo/" + route, fixture.omer).body().path(route))
                    .as(route)
                    .isEmpty();
        }
        JsonNode reminders = fixture.get("api/memo/reminders", fixture.dana).body();
        assertThat(reminders.path("upcoming"))
                .extracting(u -> u.path("text").asText())
                .contains("call the bank");
        assertThat(fixture.get("api/memo/reminders", fixture.omer).body().path("upcoming"))
                .isEmpty();
    }

    @Test
    void memories_areSearchedForTheKeysUserOnly() {
        fixture.ask(fixture.dana, "remember that the vendor needs two weeks notice");
        fixture.ask(fixture.omer, "תזכור שהספק צריך שבועיים התראה");

        JsonNode found =
                fixture.get("api/memo/memories?q=vendor%20notice", fixture.dana).body();
        JsonNode latest = fixture.get("api/memo/memories", fixture.omer).body();

        assertThat(found.path("memories")).hasSize(1);
        assertThat(found.path("memories").get(0).path("content").asText())
                .isEqualTo("the vendor needs two weeks notice");
        assertThat(found.path("memories").get(0).path("why").asText()).contains("vendor");
        assertThat(latest.path("memories"))
                .extracting(m -> m.path("content").asText())
                .containsExactly("הספק צריך שבועיים התראה");
        assertThat(fixture.get("api/memo/memories?q=vendor", fixture.omer)
                        .body()
                        .path("memories"))
                .extracting(m -> m.path("content").asText())
                .doesNotContain("the vendor needs two weeks notice");
        assertThat(fixture.get("api/memo/memories?limit=0", fixture.dana).code())
                .isEqualTo("E_BAD_INPUT");
    }

    @Test
    void aConnectedUserGetsEachReminderOnceAsAServerSentEvent() throws Exception {
        fixture.ask(fixture.dana, "remind me tomorrow at 9 to call the bank");
        fixture.ask(fixture.omer, "remind me tomorrow at 9 to water the plants");
        Notifications notifications = MemoData.open(fixture.store).notifications();
        Instant due = Instant.now();
        notifications.add(new Notifications.Notification(
                "dana",
                "task:t1@" + due.toEpochMilli(),
                Notifications.REMINDER_DUE,
                "task",
                "t1",
                "call the bank",
                due,
                due,
                false));
        notifications.add(new Notifications.Notification(
                "omer",
                "task:t2@" + due.toEpochMilli(),
                Notifications.REMINDER_DUE,
                "task",
                "t2",
                "water the plants",
                due,
                due,
                false));

        HttpResponse<InputStream> stream = fixture.http.send(
                fixture.request("api/memo/notifications", Optional.of(fixture.dana))
                        .header("Accept", "text/event-stream")
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        RunsApiTest.SseReader reader = new RunsApiTest.SseReader(
                new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8)));
        RunsApiTest.Sse first = reader.next().orElseThrow();
        reader.close();

        assertThat(first.event()).isEqualTo("reminder.due");
        JsonNode data = Json.parse(first.data(), "notification");
        assertThat(data.path("text").asText()).isEqualTo("call the bank");
        assertThat(data.path("notice").asText()).contains("call the bank");
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!notifications.pending("dana").isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(notifications.pending("dana")).isEmpty();
        assertThat(notifications.pending("omer")).hasSize(1);
        assertThat(fixture.get("api/memo/notifications", fixture.dana).body().path("notifications"))
                .hasSize(1);
    }
}
