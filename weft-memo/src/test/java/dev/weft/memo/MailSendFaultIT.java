package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.icegreen.greenmail.store.FolderException;
import com.icegreen.greenmail.store.MailFolder;
import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.RunJson;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.mail.SilentSmtp;
import dev.weft.memo.data.MailAccounts;
import dev.weft.memo.data.MailOperations;
import dev.weft.memo.data.MailSendWorker;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.OperationContext;
import dev.weft.plan.PlanMode;
import dev.weft.store.Stores;
import jakarta.mail.MessagingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
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
    private static final String SEND = "{\"operation\": \"send\", \"to\": [\"omer@example.com\"], \"subject\":"
            + " \"Contract\", \"body\": \"Signed copy attached.\"}";

    @TempDir
    Path dir;

    private GreenMail mail;
    private GreenMailUser dana;
    private GreenMailUser omer;
    private SilentSmtp smtp;
    private String url;

    @BeforeEach
    void start() throws Exception {
        mail = new GreenMail(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));
        mail.start();
        dana = mail.setUser("dana@example.com", "dana", "s3cret");
        omer = mail.setUser("omer@example.com", "omer", "omer-pw");
        smtp = new SilentSmtp(mail.getSmtp().getPort(), SilentSmtp.Mode.PASS);
        url = "sqlite:" + dir.resolve("memo.db");
        try (RunStore store = Stores.open(url)) {
            MemoData data = MemoData.open(store);
            data.mail().secrets().useKeyFile(dir.resolve("mail.key"));
            data.user("dana", "en", ZoneOffset.UTC, NOW);
            data.mail()
                    .add(
                            "dana",
                            "dana@example.com",
                            "127.0.0.1",
                            mail.getImap().getPort(),
                            "127.0.0.1",
                            smtp.port(),
                            "dana",
                            MailAccounts.Security.NONE,
                            MailAccounts.Auth.PASSWORD,
                            "s3cret",
                            NOW);
        }
    }

    @AfterEach
    void stop() throws Exception {
        smtp.close();
        mail.stop();
    }

    /** Memo over the store, its SMTP answers awaited for a second rather than the default 15. */
    private Memo memo(RunStore store) {
        Memo memo = Memo.open(store);
        memo.data().mail().secrets().useKeyFile(dir.resolve("mail.key"));
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

    private List<String> subjects(GreenMailUser user, String folder) throws FolderException {
        MailFolder box = folder.equals("INBOX")
                ? mail.getManagers().getImapHostManager().getInbox(user)
                : mail.getManagers().getImapHostManager().getFolder(user, folder);
        if (box == null) {
            return List.of();
        }
        return box.getMessages().stream()
                .map(m -> {
                    try {
                        return m.getMimeMessage().getSubject();
                    } catch (MessagingException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .toList();
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
        try (RunStore store = Stores.open(url)) {
            Memo memo = memo(store);
            Runner runner = runner(store);
            Memo.Reply waiting = askToSend(memo, runner);

            Memo.Reply done = memo.approve(runner, waiting.run().runId(), "dana", List.of());

            assertThat(done.run().status()).as(done.text()).isEqualTo(RunStatus.COMPLETED);
            assertThat(done.text()).startsWith("Sent to omer@example.com");
        }
        assertThat(smtp.dataEnds()).as("one SMTP transaction, never a retry").isEqualTo(1);
        assertThat(subjects(omer, "INBOX")).hasSize(1);
        assertThat(subjects(dana, "Sent")).as("the sender's copy, filed").hasSize(1);
    }

    /** Failed on main: the timeout after DATA was transient, and the send was retried blind. */
    @Test
    void aServerThatTookTheDataAndNeverAnsweredWithNoTraceWaitsForAPersonAndApprovingSendsOnce() throws Exception {
        smtp.mode(SilentSmtp.Mode.HOLD_SILENT);
        try (RunStore store = Stores.open(url)) {
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
            assertThat(subjects(omer, "INBOX")).isEmpty();

            smtp.mode(SilentSmtp.Mode.PASS);
            Memo.Reply sent = memo.approve(runner, unknown.run().runId(), "dana", List.of());

            assertThat(sent.run().status()).as(sent.text()).isEqualTo(RunStatus.COMPLETED);
        }
        assertThat(subjects(omer, "INBOX")).hasSize(1);
    }

    /** Failed on main: the run failed after blind retries, and nobody was asked. */
    @Test
    void rejectingASendWhoseOutcomeIsUnknownGivesUpWithoutSending() throws Exception {
        smtp.mode(SilentSmtp.Mode.HOLD_SILENT);
        try (RunStore store = Stores.open(url)) {
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
        assertThat(subjects(omer, "INBOX")).isEmpty();
    }

    /**
     * Failed on main: a sender killed after the server accepted the mail, on a server that files no
     * copy for the sender (Gmail files its own, later), was sent again by the step run again.
     */
    @Test
    void aSenderKilledAfterTheServerAcceptedWithNoCopyFoundIsNotSentAgainButAsked() throws Exception {
        Process worker = new ProcessBuilder(
                        ProcessHandle.current().info().command().orElse("java"),
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        MailSendWorker.class.getName(),
                        url,
                        dir.resolve("mail.key").toString(),
                        "run-1/A",
                        SEND)
                .redirectErrorStream(true)
                .start();
        worker.getOutputStream().close();
        String out = new String(worker.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(worker.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(out).contains("accepted").doesNotContain("returned");
        assertThat(subjects(omer, "INBOX")).containsExactly("Contract");
        // The server keeps no copy for the sender: nothing in Sent or INBOX tells that it went.
        mail.getManagers().getImapHostManager().getInbox(dana).deleteAllMessages();

        try (RunStore store = Stores.open(url)) {
            MemoData data = MemoData.open(store);
            data.mail().secrets().useKeyFile(dir.resolve("mail.key"));
            MailOperations operations = new MailOperations(data);
            ObjectNode args = (ObjectNode) Json.parse(SEND, "send");

            assertThatThrownBy(
                            () -> operations.apply(args, new OperationContext("dana", ZoneOffset.UTC, NOW, "run-1/A")))
                    .isInstanceOf(WeftException.class)
                    .satisfies(e -> assertThat(((WeftException) e).code()).isEqualTo(ErrorCode.E_OUTCOME_UNKNOWN))
                    .hasMessageContaining("may have been sent");
            assertThat(subjects(omer, "INBOX")).as("not sent again on its own").containsExactly("Contract");

            JsonNode again = operations.apply(args, new OperationContext("dana", ZoneOffset.UTC, NOW, "run-1/A", true));

            assertThat(again.path("replayed").asBoolean()).isFalse();
            assertThat(subjects(omer, "INBOX"))
                    .as("a person said to send it again")
                    .containsExactly("Contract", "Contract");
        }
    }
}
