package dev.weft.cli;

import static dev.weft.cli.CommandRunner.weftWith;
import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.weft.mail.SilentSmtp;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands a person uses when Memo's mail may have been sent (issue #35): an SMTP server that
 * takes the DATA and never answers (a relay in front of GreenMail), {@code weft memo approve} that
 * meets it, {@code weft runs show --json} that shows {@code E_OUTCOME_UNKNOWN}, and {@code weft runs
 * approve} that sends it once more. Before #35 there was no {@code runs approve}, and the send was
 * retried blind.
 */
final class MemoMailFaultIT {
    @TempDir
    Path dir;

    private String db;
    private GreenMail mail;
    private GreenMailUser omer;
    private SilentSmtp smtp;

    @BeforeEach
    void start() throws Exception {
        db = "sqlite:" + dir.resolve("memo.db");
        mail = new GreenMail(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));
        mail.start();
        mail.setUser("dana@example.com", "dana@example.com", "s3cret");
        omer = mail.setUser("omer@example.com", "omer", "pw");
        smtp = new SilentSmtp(mail.getSmtp().getPort(), SilentSmtp.Mode.HOLD_SILENT);
        var added = run(
                Map.of("WEFT_MAIL_SECRET", "s3cret"),
                "memo",
                "mail",
                "add",
                "--user",
                "dana",
                "--imap",
                "127.0.0.1:" + mail.getImap().getPort(),
                "--smtp",
                "127.0.0.1:" + smtp.port(),
                "--login",
                "dana@example.com",
                "--security",
                "none");
        assertThat(added.exitCode()).as(added.err()).isZero();
    }

    @AfterEach
    void stop() throws Exception {
        smtp.close();
        mail.stop();
    }

    private CommandRunner.Outcome run(Map<String, String> env, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--db");
        all.add(db);
        return weftWith(env, all.toArray(String[]::new));
    }

    private int omersMail() throws Exception {
        return mail.getManagers().getImapHostManager().getInbox(omer).getMessageCount();
    }

    @Test
    void aSendWhoseServerNeverAnsweredWaitsWithTheCodeAndRunsApproveSendsItOnce() throws Exception {
        String runId = run(
                        Map.of(),
                        "memo",
                        "ask",
                        "--user",
                        "dana",
                        "--json",
                        "send an email to omer@example.com saying the report is ready")
                .json()
                .get("runId")
                .asText();

        var unknown = run(Map.of(), "memo", "approve", runId);
        var shown = run(Map.of(), "runs", "show", runId, "--json");

        assertThat(unknown.exitCode()).as(unknown.out() + unknown.err()).isEqualTo(3);
        assertThat(unknown.out()).contains("may have been sent — send again?").contains("E_OUTCOME_UNKNOWN");
        assertThat(shown.json().get("status").asText()).isEqualTo("WAITING");
        assertThat(shown.json().findValuesAsText("code")).contains("E_OUTCOME_UNKNOWN");
        assertThat(smtp.dataEnds()).as("never a second send on its own").isEqualTo(1);
        assertThat(omersMail()).isZero();

        smtp.mode(SilentSmtp.Mode.PASS);
        var sent = run(Map.of(), "runs", "approve", runId);

        assertThat(sent.exitCode()).as(sent.out() + sent.err()).isZero();
        assertThat(sent.out()).contains("Sent to omer@example.com");
        assertThat(omersMail()).isEqualTo(1);
        assertThat(run(Map.of(), "runs", "approve", runId).exitCode()).isEqualTo(2);
        assertThat(omersMail()).isEqualTo(1);
    }
}
