package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.RunJson;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.mail.SilentSmtp;
import dev.weft.memo.data.MailOperations;
import dev.weft.memo.data.OperationContext;
import dev.weft.plan.PlanMode;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memo's mail at its worst moments (issue #35): an SMTP server that takes the mail's DATA and never
 * answers, and a sender killed after the server accepted the mail and before anything was filed. The
 * count, every time: no mail doubled, and every send whose outcome is unknown waits for a person with
 * {@code E_OUTCOME_UNKNOWN}. On the main branch before #35 each of the tests marked so below failed: a
 * timeout after DATA was retried blind, and a send found nowhere was made again.
 */
final class MailSendFaultIT {
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    @TempDir
    Path dir;

    private MailFixture fixture;
    private SilentSmtp smtp;

    @BeforeEach
    void start() throws Exception {
        fixture = MailFixture.start(dir);
        smtp = new SilentSmtp(fixture.smtpPort(), SilentSmtp.Mode.PASS);
        fixture.danaSendsThrough(smtp.port(), NOW);
    }

    @AfterEach
    void stop() throws Exception {
        smtp.close();
        fixture.close();
    }

    /** Memo over the store, its SMTP answers awaited for a second rather than the default 15. */
    private Memo memo(RunStore store) {
        Memo memo = Memo.open(store);
        memo.data().mail().secrets().useKeyFile(fixture.key);
        Properties quick = new Properties();
        quick.put("mail.smtp.timeout", "1000");
        memo.data().mail().useSessionProperties(quick);
        return memo;
    }

    private static Runner runner(RunStore store) {
        return Runner.builder()
                .store(store)
                .time(new TimeSource() {
                    @Override
                    public Instant now() {
                        return NOW;
                    }

                    @Override
                    public void sleep(Duration duration) {}
                })
                .build();
    }

    private Memo.Reply askToSend(Memo memo, Runner runner) {
        Memo.Reply waiting = memo.ask(
                runner,
                new Memo.Request(
                        "dana",
                        "send an email to omer@example.com saying the contract is signed",
                        Optional.of(ZoneOffset.UTC),
                        PlanMode.AUTO));
        assertThat(waiting.run().status()).as(waiting.text()).isEqualTo(RunStatus.WAITING);
        return waiting;
    }

    @Test
    void aServerThatTookTheMailAndNeverAnsweredIsReconciledByItsMessageIdAndNotSentAgain() throws Exception {
        smtp.mode(SilentSmtp.Mode.DELIVER_THEN_SILENT);
        try (RunStore store = Stores.open(fixture.url)) {
            Memo memo = memo(store);
            Runner runner = runner(store);
            Memo.Reply waiting = askToSend(memo, runner);

            Memo.Reply done = memo.approve(runner, waiting.run().runId(), "dana", List.of());

            assertThat(done.run().status()).as(done.text()).isEqualTo(RunStatus.COMPLETED);
            assertThat(done.text()).startsWith("Sent to omer@example.com");
        }
        assertThat(smtp.dataEnds()).as("one SMTP transaction, never a retry").isEqualTo(1);
        assertThat(fixture.subjects(fixture.omer, "INBOX")).hasSize(1);
        assertThat(fixture.subjects(fixture.dana, "Sent"))
                .as("the sender's copy, filed")
                .hasSize(1);
    }

    /** Failed on main: the timeout after DATA was transient, and the send was retried blind. */
    @Test
    void aServerThatTookTheDataAndNeverAnsweredWithNoTraceWaitsForAPersonAndApprovingSendsOnce() throws Exception {
        smtp.mode(SilentSmtp.Mode.HOLD_SILENT);
        try (RunStore store = Stores.open(fixture.url)) {
            Memo memo = memo(store);
            Runner runner = runner(store);
            Memo.Reply waiting = askToSend(memo, runner);

            Memo.Reply unknown = memo.approve(runner, waiting.run().runId(), "dana", List.of());

            assertThat(unknown.run().status()).isEqualTo(RunStatus.WAITING);
            assertThat(unknown.text())
                    .contains("may have been sent — send again?")
                    .contains("E_OUTCOME_UNKNOWN");
            JsonNode shown = RunJson.of(runner.result(unknown.run().runId()));
            assertThat(shown.findValuesAsText("code")).contains("E_OUTCOME_UNKNOWN");
            assertThat(smtp.dataEnds()).as("no second attempt on its own").isEqualTo(1);
            assertThat(fixture.subjects(fixture.omer, "INBOX")).isEmpty();

            smtp.mode(SilentSmtp.Mode.PASS);
            Memo.Reply sent = memo.approve(runner, unknown.run().runId(), "dana", List.of());

            assertThat(sent.run().status()).as(sent.text()).isEqualTo(RunStatus.COMPLETED);
        }
        assertThat(fixture.subjects(fixture.omer, "INBOX")).hasSize(1);
    }

    /** Failed on main: the run failed after blind retries, and nobody was asked. */
    @Test
    void rejectingASendWhoseOutcomeIsUnknownGivesUpWithoutSending() throws Exception {
        smtp.mode(SilentSmtp.Mode.HOLD_SILENT);
        try (RunStore store = Stores.open(fixture.url)) {
            Memo memo = memo(store);
            Runner runner = runner(store);
            Memo.Reply unknown =
                    memo.approve(runner, askToSend(memo, runner).run().runId(), "dana", List.of());
            smtp.mode(SilentSmtp.Mode.PASS);

            Memo.Reply gaveUp = memo.reject(runner, unknown.run().runId(), "dana");

            assertThat(gaveUp.run().status()).isNotEqualTo(RunStatus.WAITING);
            assertThat(gaveUp.text()).contains("may have taken effect");
        }
        assertThat(smtp.dataEnds()).isEqualTo(1);
        assertThat(fixture.subjects(fixture.omer, "INBOX")).isEmpty();
    }

    /**
     * Failed on main: a sender killed after the server accepted the mail, on a server that files no
     * copy for the sender (Gmail files its own, later), was sent again by the step run again.
     */
    @Test
    void aSenderKilledAfterTheServerAcceptedWithNoCopyFoundIsNotSentAgainButAsked() throws Exception {
        MailFixture.Killed worker = fixture.sendAndDieOnAcceptance("run-1/A");
        assertThat(worker.output()).contains("accepted").doesNotContain("returned");
        assertThat(fixture.subjects(fixture.omer, "INBOX")).containsExactly("Contract");
        // The server keeps no copy for the sender: nothing in Sent or INBOX tells that it went.
        fixture.mail.getManagers().getImapHostManager().getInbox(fixture.dana).deleteAllMessages();

        try (RunStore store = Stores.open(fixture.url)) {
            MailOperations operations = new MailOperations(fixture.data(store));
            ObjectNode args = (ObjectNode) Json.parse(MailFixture.SEND, "send");

            assertThatThrownBy(
                            () -> operations.apply(args, new OperationContext("dana", ZoneOffset.UTC, NOW, "run-1/A")))
                    .isInstanceOf(WeftException.class)
                    .satisfies(e -> assertThat(((WeftException) e).code()).isEqualTo(ErrorCode.E_OUTCOME_UNKNOWN))
                    .hasMessageContaining("may have been sent");
            assertThat(fixture.subjects(fixture.omer, "INBOX"))
                    .as("not sent again on its own")
                    .containsExactly("Contract");

            JsonNode again = operations.apply(args, new OperationContext("dana", ZoneOffset.UTC, NOW, "run-1/A", true));

            assertThat(again.path("replayed").asBoolean()).isFalse();
            assertThat(fixture.subjects(fixture.omer, "INBOX"))
                    .as("a person said to send it again")
                    .containsExactly("Contract", "Contract");
        }
    }
}
