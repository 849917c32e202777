package dev.weft.mailflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.RunJson;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.mail.SilentSmtp;
import jakarta.mail.Folder;
import jakarta.mail.Store;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The email agent's reply against an SMTP server that takes the reply's DATA and never answers (a
 * relay in front of GreenMail that swallows the end of DATA). On main before issue #35 the timeout was
 * transient and the send node retried it blind, up to three times; now the reply is looked for in
 * Sent, and where no copy tells, the run waits for a person with {@code E_OUTCOME_UNKNOWN}. Counted: 0
 * doubled, and the unknown visible.
 */
final class ReplySendFaultIT {
    @TempDir
    Path dir;

    private GreenMail mail;
    private SilentSmtp smtp;
    private RunStore store;
    private Runner runner;
    private Mailflow mailflow;

    @BeforeEach
    void open() throws Exception {
        mail = new GreenMail(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));
        mail.start();
        mail.setUser("events@olivegrove.example", "olive", "olive-pw");
        mail.setUser("dana.cohen@example.com", "dana", "dana-pw");
        smtp = new SilentSmtp(mail.getSmtp().getPort(), SilentSmtp.Mode.HOLD_SILENT);
        store = Fixtures.sqlite(dir);
        runner = Fixtures.runner(store);
        Properties quick = new Properties();
        quick.put("mail.smtp.timeout", "1000");
        mailflow = Mailflow.builder()
                .store(store)
                .keyFile(dir.resolve("mail.key"))
                .mailProperties(quick)
                .build();
        Mailflow.VenueSettings olive = Fixtures.oliveGrove("olive", Optional.of("olive-org"));
        mailflow.addVenue(new Mailflow.VenueSettings(
                olive.id(),
                olive.organization(),
                olive.name(),
                olive.address(),
                olive.zone(),
                olive.language(),
                Optional.of(Venue.SendMode.AUTO),
                olive.rooms(),
                olive.bookings(),
                Optional.of(new Mailflow.MailboxSettings(
                        "127.0.0.1",
                        mail.getImap().getPort(),
                        "127.0.0.1",
                        smtp.port(),
                        "olive",
                        Venue.Security.NONE,
                        "olive-pw")),
                Optional.empty(),
                Optional.empty()));
    }

    @AfterEach
    void close() throws Exception {
        smtp.close();
        store.close();
        mail.stop();
    }

    private int danasInbox() throws Exception {
        try (Store imap = mail.getImap().createStore()) {
            imap.connect("dana", "dana-pw");
            Folder inbox = imap.getFolder("INBOX");
            inbox.open(Folder.READ_ONLY);
            return inbox.getMessageCount();
        }
    }

    private RunResult answer(String runId, boolean approved) {
        return runner.resume(
                mailflow.graphOf(store.findRun(runId).orElseThrow()).orElseThrow(),
                runId,
                Json.object().put("approved", approved).put("by", "noa"));
    }

    @Test
    void aReplyWhoseServerNeverAnsweredDataWaitsForAPersonAndApprovingSendsItOnce() throws Exception {
        JsonNode out = mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-en-plain.eml"))
                .toJson();

        assertThat(out.path("status").asText()).as(out.toString()).isEqualTo("WAITING");
        assertThat(out.path("code").asText()).isEqualTo("E_OUTCOME_UNKNOWN");
        assertThat(out.path("question").asText()).isEqualTo("may have been sent — send again?");
        String runId = out.path("runId").asText();
        JsonNode shown = RunJson.of(runner.result(runId));
        assertThat(shown.findValuesAsText("code")).contains("E_OUTCOME_UNKNOWN");
        assertThat(smtp.dataEnds()).as("not retried on its own").isEqualTo(1);
        assertThat(danasInbox()).isZero();

        smtp.mode(SilentSmtp.Mode.PASS);
        RunResult sent = answer(runId, true);

        assertThat(sent.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(Processed.sent(sent)).isTrue();
        assertThat(smtp.dataEnds()).isEqualTo(2);
        assertThat(danasInbox()).isEqualTo(1);
    }

    /**
     * A sender killed after the SMTP server accepted the reply and before its copy was filed in Sent
     * (the window main's test never met: it cut the sender after the copy). Failed on main: the run
     * recovered sent the reply again. Now the recovered send finds no copy and asks a person.
     */
    @Test
    void aSenderKilledAfterTheServerAcceptedAndBeforeTheSentCopyIsRecoveredIntoAQuestionNotASecondReply()
            throws Exception {
        smtp.mode(SilentSmtp.Mode.PASS);
        Process worker = new ProcessBuilder(
                        ProcessHandle.current().info().command().orElse("java"),
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        ReplySendWorker.class.getName(),
                        "sqlite:" + dir.resolve("weft.db"),
                        dir.resolve("mail.key").toString(),
                        "inquiry-en-plain.eml")
                .redirectErrorStream(true)
                .start();
        worker.getOutputStream().close();
        String said = new String(worker.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(worker.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(said).contains("accepted").doesNotContain("returned");
        assertThat(danasInbox())
                .as("the server took it before the process died")
                .isEqualTo(1);
        String runId = store.listRuns(Optional.empty()).get(0).id();

        RunResult recovered = runner.recover(
                mailflow.graphOf(store.findRun(runId).orElseThrow()).orElseThrow(), runId);

        assertThat(recovered.status()).isEqualTo(RunStatus.WAITING);
        assertThat(recovered.interrupts().get("send").path("code").asText()).isEqualTo("E_OUTCOME_UNKNOWN");
        assertThat(smtp.dataEnds()).as("one SMTP transaction in all").isEqualTo(1);
        assertThat(danasInbox()).isEqualTo(1);
    }

    @Test
    void rejectingAReplyThatMayHaveBeenSentFailsTheRunWithTheCodeAndSendsNothing() throws Exception {
        String runId = mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-en-plain.eml"))
                .runId()
                .orElseThrow();
        smtp.mode(SilentSmtp.Mode.PASS);

        RunResult gaveUp = answer(runId, false);

        assertThat(gaveUp.status()).isEqualTo(RunStatus.FAILED);
        assertThat(gaveUp.run().error().orElseThrow().code()).isEqualTo(ErrorCode.E_OUTCOME_UNKNOWN);
        assertThat(gaveUp.run().error().orElseThrow().message()).contains("rejected by noa");
        assertThat(smtp.dataEnds()).isEqualTo(1);
        assertThat(danasInbox()).isZero();
    }
}
