package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How UnderstandingScore judges a plan, and that the held-out sets it reads are well formed. */
final class UnderstandingScoreTest {
    private static final Set<String> ROUTES = Set.of(
            "calendar/list_events",
            "calendar/find_event",
            "calendar/check_conflicts",
            "calendar/create_event",
            "calendar/create_recurring",
            "calendar/update_event",
            "calendar/delete_event",
            "calendar/delete_events",
            "calendar/end_recurring",
            "database/create_task",
            "database/create_tasks",
            "database/find_task",
            "database/update_task",
            "database/delete_task",
            "database/delete_tasks",
            "database/complete_task",
            "database/complete_tasks",
            "database/create_list",
            "database/add_item",
            "database/find_list",
            "database/delete_list",
            "database/delete_item",
            "database/toggle_item",
            "gmail/send_email",
            "gmail/compose_email",
            "gmail/search_emails",
            "gmail/read_email",
            "gmail/reply_email",
            "gmail/forward_email",
            "gmail/delete_email",
            "gmail/archive_email",
            "gmail/mark_read",
            "second-brain/store_thought",
            "second-brain/search_memory",
            "second-brain/summarize_project",
            "second-brain/update_memory",
            "second-brain/delete_memory",
            "meta/help",
            "general/respond",
            "meta/undo");

    private static UnderstandingScore.Case request(String scope, String expect) {
        return UnderstandingScore.Case.of(Json.parse(
                "{\"message\":\"m\",\"lang\":\"en\",\"family\":\"f\",\"scope\":\"" + scope + "\",\"expect\":" + expect
                        + "}",
                "case"));
    }

    private static UnderstandingScore.Outcome planned(UnderstandingScore.Case request, String... routes) {
        StringBuilder steps = new StringBuilder();
        for (String route : routes) {
            String[] parts = route.split("/");
            steps.append(steps.isEmpty() ? "" : ",")
                    .append("{\"id\":\"A\",\"capability\":\"")
                    .append(parts[0])
                    .append("\",\"action\":\"")
                    .append(parts[1])
                    .append("\"}");
        }
        return UnderstandingScore.Outcome.of(request, Json.parse("{\"plan\":{\"plan\":[" + steps + "]}}", "result"));
    }

    @Test
    void routedRightWhenEachExpectedStepIsMatchedInOrderWithReadsBetween() {
        UnderstandingScore.Case twoSteps =
                request("in", "[[\"calendar/update_event\"],[\"gmail/send_email\",\"gmail/compose_email\"]]");

        assertThat(planned(twoSteps, "calendar/find_event", "calendar/update_event", "gmail/compose_email")
                        .routedRight())
                .isTrue();
        assertThat(planned(twoSteps, "gmail/send_email", "calendar/update_event")
                        .routedRight())
                .as("out of order")
                .isFalse();
        assertThat(planned(twoSteps, "calendar/update_event").routedRight())
                .as("a step missing")
                .isFalse();
    }

    @Test
    void anExtraWritingStepIsAMissButARepeatOfTheMatchedRouteIsNot() {
        UnderstandingScore.Case add = request("in", "[[\"database/add_item\"]]");

        assertThat(planned(add, "database/add_item", "database/add_item").routedRight())
                .isTrue();
        assertThat(planned(add, "database/add_item", "calendar/create_event").routedRight())
                .isFalse();
        assertThat(planned(add, "database/find_list", "database/add_item").routedRight())
                .isTrue();
    }

    @Test
    void outOfScopeIsActedOnWhenAnyStepWrites() {
        UnderstandingScore.Case weather = request("out", "[[\"general/respond\",\"meta/help\"]]");

        UnderstandingScore.Outcome event = planned(weather, "calendar/create_event");
        UnderstandingScore.Outcome read = planned(weather, "calendar/list_events");
        UnderstandingScore.Outcome answer = planned(weather, "general/respond");

        assertThat(event.actsOn()).isTrue();
        assertThat(read.actsOn()).isFalse();
        assertThat(read.routedRight()).isFalse();
        assertThat(answer.routedRight()).isTrue();
        assertThat(answer.actsOn()).isFalse();
    }

    @Test
    void writesIsEveryActionThatDoesNotReadUnknownOnesIncluded() {
        assertThat(UnderstandingScore.writes("second-brain/answer_from_memory")).isFalse();
        assertThat(UnderstandingScore.writes("meta/help")).isFalse();
        assertThat(UnderstandingScore.writes("gmail/compose_email")).isTrue();
        assertThat(UnderstandingScore.writes("meta/undo")).isTrue();
        assertThat(UnderstandingScore.writes("calendar/end_recurring")).isTrue();
    }

    @Test
    void aRequestThatNeedsACapabilityAnsweredOnlyWithTalkIsRefused() {
        UnderstandingScore.Case reminder = request("in", "[[\"database/create_task\"]]");
        UnderstandingScore.Case chat = request("in", "[[\"general/respond\"]]");

        assertThat(planned(reminder, "general/respond").refused()).isTrue();
        assertThat(planned(reminder, "calendar/create_event").refused()).isFalse();
        assertThat(planned(chat, "general/respond").refused()).isFalse();
    }

    @Test
    void anErrorAnswerIsAMissAndNotARefusal() {
        UnderstandingScore.Outcome error = UnderstandingScore.Outcome.of(
                request("in", "[[\"database/create_task\"]]"),
                Json.parse("{\"error\":{\"code\":\"CRASH\",\"message\":\"boom\"}}", "result"));

        assertThat(error.routedRight()).isFalse();
        assertThat(error.refused()).isFalse();
        assertThat(error.error()).contains("CRASH: boom");
    }

    @Test
    void resultsMustBeOnePerRequest(@TempDir Path dir) throws Exception {
        Path heldOut = dir.resolve("set.jsonl");
        Path results = dir.resolve("results.jsonl");
        Files.writeString(
                heldOut,
                "{\"message\":\"hi\",\"lang\":\"en\",\"family\":\"smalltalk\",\"scope\":\"in\",\"expect\":[[\"general/respond\"]]}\n");
        Files.writeString(results, "");

        assertThatThrownBy(() -> UnderstandingScore.outcomes(heldOut, results))
                .isInstanceOf(WeftException.class)
                .hasMessageContaining("0 results for the 1 requests");
    }

    @Test
    void aMissingFileIsBadInputNamingIt(@TempDir Path dir) {
        Path missing = dir.resolve("missing.jsonl");

        assertThatThrownBy(() -> UnderstandingScore.cases(missing))
                .isInstanceOf(WeftException.class)
                .hasMessage("no file " + missing);
    }

    @Test
    void theBatchInputAsksEachRequestInPreviewAsAUserOfItsOwn(@TempDir Path dir) throws Exception {
        Path heldOut = dir.resolve("set.jsonl");
        Files.writeString(
                heldOut,
                "{\"message\":\"hi\",\"lang\":\"he\",\"family\":\"smalltalk\",\"scope\":\"in\",\"expect\":[[\"general/respond\"]]}\n"
                        + "{\"message\":\"later\",\"lang\":\"he\",\"family\":\"smalltalk\",\"scope\":\"in\","
                        + "\"expect\":[[\"general/respond\"]],\"now\":\"2026-12-01T08:00:00+02:00\"}\n");

        List<JsonNode> lines = UnderstandingScore.batch(heldOut, UnderstandingScore.NOW).stream()
                .map(l -> Json.parse(l, "batch line"))
                .toList();

        assertThat(lines).hasSize(2);
        assertThat(lines.get(0).get("now").asText()).isEqualTo("2026-11-24T10:00:00+02:00");
        assertThat(lines.get(1).get("now").asText()).isEqualTo("2026-12-01T08:00:00+02:00");
        assertThat(lines.get(0).get("mode").asText()).isEqualTo("preview");
        assertThat(lines.get(0).get("tz").asText()).isEqualTo("Asia/Jerusalem");
        assertThat(lines.get(0).get("user").asText())
                .isNotEqualTo(lines.get(1).get("user").asText());
    }

    @Test
    void theHeldOutSetsAreLargeEnoughSpeakMemosRoutesAndAreAQuarterOutOfScope() throws URISyntaxException {
        for (String name : List.of("heldout-en", "heldout-he", "fresh-en", "fresh-he")) {
            String lang = name.substring(name.indexOf('-') + 1);
            Path file = Path.of(UnderstandingScoreTest.class
                    .getResource("/understanding/" + name + ".jsonl")
                    .toURI());
            List<UnderstandingScore.Case> cases = UnderstandingScore.cases(file);

            assertThat(cases)
                    .hasSizeGreaterThanOrEqualTo(
                            name.startsWith("fresh")
                                    ? (lang.equals("en") ? 500 : 400)
                                    : (lang.equals("en") ? 600 : 450));
            assertThat(cases).allSatisfy(c -> {
                assertThat(c.lang()).isEqualTo(lang);
                assertThat(c.expect()).allSatisfy(step -> assertThat(ROUTES).containsAll(step));
                if (!c.inScope()) {
                    assertThat(c.expect()).containsExactly(Set.of("general/respond", "meta/help"));
                }
            });
            assertThat(cases.stream().map(c -> c.message().toLowerCase(java.util.Locale.ROOT)))
                    .doesNotHaveDuplicates();
            long out = cases.stream().filter(c -> !c.inScope()).count();
            assertThat(4 * out).as("out-of-scope lines in " + lang).isGreaterThanOrEqualTo(cases.size());
        }
    }

    @Test
    void aLineWithoutRoutesIsBadInput() {
        assertThatThrownBy(() -> request("in", "[]"))
                .isInstanceOf(WeftException.class)
                .hasMessageContaining("expect needs a route per step");
        assertThatThrownBy(() -> request("maybe", "[[\"general/respond\"]]"))
                .isInstanceOf(WeftException.class)
                .hasMessageContaining("scope is in or out");
        assertThat(request("in", "[[\"general/respond\"]]").needsAction()).isFalse();
    }
}
