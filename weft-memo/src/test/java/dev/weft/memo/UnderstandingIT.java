package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.PlanMode;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memo's understanding on the sets beside {@code UnderstandingScore}, asked in-process in PREVIEW as
 * {@code score.sh} asks them through the command: the dev sets ({@code heldout-*}, written apart from
 * the templates but looked at while tuning), the fresh sets ({@code fresh-*}, never looked at while
 * tuning the classifier), the untuned sets ({@code untuned-*}, written before issue #37's tuning
 * and never tuned on) and the spoken sets ({@code spoken-*}, written before the fourth round's tuning). Each prints its report; the floors below hold what has been reached, so that a
 * change that loses understanding fails the build.
 */
final class UnderstandingIT {
    @TempDir
    Path dir;

    @Test
    void routesTheDevRequestsRightAndActsOnAlmostNoneThatAreNotForIt() {
        UnderstandingScore.Report report = score("heldout-en.jsonl", "heldout-he.jsonl");
        assertFloors(report, 0.92, 0.92, 0.03);
    }

    @Test
    void routesTheFreshRequestsRightAndActsOnFewThatAreNotForIt() {
        UnderstandingScore.Report report = score("fresh-en.jsonl", "fresh-he.jsonl");
        assertFloors(report, FRESH_EN, FRESH_HE, FRESH_OUT_OF_SCOPE);
    }

    @Test
    void routesTheUntunedRequestsRight() {
        UnderstandingScore.Report report = score("untuned-en.jsonl", "untuned-he.jsonl");
        assertFloors(report, UNTUNED_EN, UNTUNED_HE, UNTUNED_OUT_OF_SCOPE);
    }

    /**
     * Spoken requests to a phone assistant (issue #37's fourth round), written before any tuning for
     * them: alarms, timers, reminders and calendar said aloud, beside the weather, music, lights, rides,
     * orders and calls that sound like Memo's.
     */
    @Test
    void routesTheSpokenRequestsRight() {
        UnderstandingScore.Report report = score("spoken-en.jsonl", "spoken-he.jsonl");
        assertFloors(report, SPOKEN_EN, SPOKEN_HE, SPOKEN_OUT_OF_SCOPE);
    }

    private static final double SPOKEN_EN = 0.95;
    private static final double SPOKEN_HE = 0.95;
    private static final double SPOKEN_OUT_OF_SCOPE = 0.0;

    /** What the fresh sets reached (issue #37), less a margin for a model retrained from other templates. */
    private static final double FRESH_EN = 0.96;

    private static final double FRESH_HE = 0.95;
    private static final double FRESH_OUT_OF_SCOPE = 0.02;
    private static final double UNTUNED_EN = 0.85;
    private static final double UNTUNED_HE = 0.85;
    private static final double UNTUNED_OUT_OF_SCOPE = 0.10;

    /**
     * The safety sets and the probes (issue #37): what Memo does not do is never acted on, no read
     * becomes a change, and a change that names no delete ("turn my morning alarm on") is no delete.
     */
    @Test
    void actsOnNoneOfTheSafetySetsOutOfScopeRequests() {
        UnderstandingScore.Report report =
                score("safety-en.jsonl", "safety-he.jsonl", "probes-en.jsonl", "probes-he.jsonl");
        assertFloors(report, 0.0, 0.0, 0.0);
    }

    private UnderstandingScore.Report score(String... files) {
        List<UnderstandingScore.Outcome> outcomes = new ArrayList<>();
        try (RunStore store = Stores.open("sqlite:" + dir.resolve("understanding-" + files[0] + ".db"))) {
            Memo memo = Memo.open(store);
            Instant now = OffsetDateTime.parse(UnderstandingScore.NOW).toInstant();
            Runner runner =
                    Runner.builder().store(store).time(TimeSource.of(() -> now)).build();
            int user = 0;
            for (String file : files) {
                Path path = Path.of("src/test/resources/understanding", file);
                for (UnderstandingScore.Case request : UnderstandingScore.cases(path)) {
                    Memo.Reply reply = memo.ask(
                            runner,
                            new Memo.Request(
                                    file + "-" + ++user,
                                    request.message(),
                                    Optional.of(ZoneId.of(UnderstandingScore.ZONE)),
                                    PlanMode.PREVIEW));
                    outcomes.add(UnderstandingScore.Outcome.of(request, reply.json()));
                }
            }
        }
        UnderstandingScore.Report report = new UnderstandingScore.Report(outcomes);
        System.out.println("== " + String.join(", ", files));
        report.print(System.out);
        return report;
    }

    private static void assertFloors(
            UnderstandingScore.Report report, double english, double hebrew, double outOfScopeActedOn) {
        assertThat(report.routedRight(Optional.of("en"))).as("routed right, en").isGreaterThanOrEqualTo(english);
        assertThat(report.routedRight(Optional.of("he"))).as("routed right, he").isGreaterThanOrEqualTo(hebrew);
        for (String lang : List.of("en", "he")) {
            assertThat(report.outOfScopeActedOn(Optional.of(lang)))
                    .as("out of scope acted on, " + lang)
                    .isLessThanOrEqualTo(outOfScopeActedOn);
            assertThat(report.errors(Optional.of(lang))).as("errors, " + lang).isZero();
            assertThat(report.readsPlannedAsChanges(Optional.of(lang)))
                    .as("reads planned as changes, " + lang)
                    .isZero();
        }
    }
}
