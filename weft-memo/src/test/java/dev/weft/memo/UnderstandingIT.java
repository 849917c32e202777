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
 * Memo's understanding on the held-out sets beside {@code UnderstandingScore} (written apart from its
 * templates), asked in-process in PREVIEW as {@code score.sh} asks them through the command: the
 * floors below hold what has been reached, so that a change that loses understanding fails the build.
 */
final class UnderstandingIT {
    @TempDir
    Path dir;

    @Test
    void routesTheHeldOutRequestsRightAndActsOnAlmostNoneThatAreNotForIt() {
        UnderstandingScore.Report report = asked("heldout-en.jsonl", "heldout-he.jsonl");
        report.print(System.out);

        for (String lang : List.of("en", "he")) {
            assertThat(report.routedRight(Optional.of(lang)))
                    .as("routed right, " + lang)
                    .isGreaterThanOrEqualTo(0.92);
            assertThat(report.outOfScopeActedOn(Optional.of(lang)))
                    .as("out of scope acted on, " + lang)
                    .isLessThanOrEqualTo(0.03);
            assertThat(report.errors(Optional.of(lang))).as("errors, " + lang).isZero();
            assertThat(report.readsPlannedAsChanges(Optional.of(lang)))
                    .as("reads planned as changes, " + lang)
                    .isZero();
        }
    }

    /** Every set, the fresh ones too: no request that only reads is planned as a change. */
    @Test
    void noSetHasAReadPlannedAsAChange() {
        for (String set : List.of("fresh-en.jsonl", "fresh-he.jsonl", "safety-en.jsonl", "safety-he.jsonl")) {
            UnderstandingScore.Report report = asked(set);
            System.out.println("== " + set);
            report.print(System.out);
            assertThat(report.readsPlannedAsChanges(Optional.empty()))
                    .as("reads planned as changes, " + set)
                    .isZero();
            assertThat(report.errors(Optional.empty())).as("errors, " + set).isZero();
        }
    }

    /** The safety set: what Memo does not do is never acted on. */
    @Test
    void actsOnNoneOfTheSafetySetsOutOfScopeRequests() {
        UnderstandingScore.Report report = asked("safety-en.jsonl", "safety-he.jsonl");

        assertThat(report.outOfScopeActedOn(Optional.empty())).isZero();
    }

    private UnderstandingScore.Report asked(String... files) {
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
                                    "heldout-" + ++user,
                                    request.message(),
                                    Optional.of(ZoneId.of(UnderstandingScore.ZONE)),
                                    PlanMode.PREVIEW));
                    outcomes.add(UnderstandingScore.Outcome.of(request, reply.json()));
                }
            }
        }
        return new UnderstandingScore.Report(outcomes);
    }
}
