package dev.weft.cli;

import static dev.weft.cli.CommandRunner.weft;
import static dev.weft.cli.CommandRunner.weftWith;
import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weft memo mail}: connecting a mailbox from the command line, and approving a send. */
final class MemoMailCommandTest {
    @TempDir
    Path dir;

    private String db;
    private GreenMail mail;
    private GreenMailUser omer;

    @BeforeEach
    void start() {
        db = "sqlite:" + dir.resolve("memo.db");
        mail = new GreenMail(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));
        mail.start();
        mail.setUser("dana@example.com", "dana@example.com", "s3cret");
        omer = mail.setUser("omer@example.com", "omer", "pw");
    }

    @AfterEach
    void stop() {
        mail.stop();
    }

    private CommandRunner.Outcome run(Map<String, String> env, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--db");
        all.add(db);
        return weftWith(env, all.toArray(String[]::new));
    }

    private CommandRunner.Outcome add(String secret, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "memo",
                "mail",
                "add",
                "--user",
                "dana",
                "--imap",
                "127.0.0.1:" + mail.getImap().getPort(),
                "--smtp",
                "127.0.0.1:" + mail.getSmtp().getPort(),
                "--login",
                "dana@example.com"));
        if (!List.of(more).contains("--security")) {
            args.addAll(List.of("--security", "none"));
        }
        args.addAll(List.of(more));
        return run(secret == null ? Map.of() : Map.of("WEFT_MAIL_SECRET", secret), args.toArray(String[]::new));
    }

    @Test
    void addsAMailboxWithTheSecretFromTheEnvironmentAndChecksBothServers() throws Exception {
        var added = add("s3cret");
        var checked = run(Map.of(), "memo", "mail", "check", "--user", "dana");
        var shown = run(Map.of(), "memo", "mail", "show", "--user", "dana", "--json");

        assertThat(added.exitCode()).as(added.err()).isZero();
        assertThat(added.out()).contains("Added dana@example.com for dana");
        assertThat(checked.exitCode()).as(checked.out()).isZero();
        assertThat(checked.out()).contains("IMAP 127.0.0.1:" + mail.getImap().getPort() + ": ok");
        assertThat(checked.out()).contains("SMTP 127.0.0.1:" + mail.getSmtp().getPort() + ": ok");
        assertThat(shown.json().get("security").asText()).isEqualTo("none");
        assertThat(shown.out()).doesNotContain("s3cret");
        Path key = CommandRunner.HOME.resolve("mail.key");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key)))
                .isEqualTo("rw-------");
        assertThat(Files.readString(dir.resolve("memo.db"), java.nio.charset.StandardCharsets.ISO_8859_1))
                .doesNotContain("s3cret");
    }

    @Test
    void aWrongPasswordIsReportedServerByServerWithExitOne() {
        add("wrong");
        var checked = run(Map.of(), "memo", "mail", "check", "--user", "dana", "--json");

        assertThat(checked.exitCode()).isEqualTo(1);
        assertThat(checked.json().get("ok").asBoolean()).isFalse();
        assertThat(checked.json().get("servers").get(0).asText()).contains("refused the login of dana@example.com");
    }

    @Test
    void badInputIsRefusedWithExitTwoAndKeepsNothing() {
        var noSecret = add(null);
        var badServer = run(
                Map.of("WEFT_MAIL_SECRET", "x"),
                "memo",
                "mail",
                "add",
                "--user",
                "dana",
                "--imap",
                "imap.example.com",
                "--smtp",
                "smtp.example.com:465",
                "--login",
                "dana@example.com");
        var badSecurity = add("x", "--security", "ssl3");
        var notAnAddress = run(
                Map.of("WEFT_MAIL_SECRET", "x"),
                "memo",
                "mail",
                "add",
                "--user",
                "dana",
                "--imap",
                "h:993",
                "--smtp",
                "h:465",
                "--login",
                "dana");

        assertThat(noSecret.exitCode()).isEqualTo(2);
        assertThat(noSecret.err()).contains("E_BAD_INPUT").contains("WEFT_MAIL_SECRET");
        assertThat(badServer.exitCode()).isEqualTo(2);
        assertThat(badServer.err()).contains("--imap imap.example.com: expected HOST:PORT");
        assertThat(badSecurity.err()).contains("security 'ssl3' is not one of tls, starttls, none");
        assertThat(notAnAddress.err()).contains("--address");
        var shown = run(Map.of(), "memo", "mail", "show", "--user", "dana");
        assertThat(shown.exitCode()).isEqualTo(2);
        assertThat(shown.err()).contains("E_MAIL_NOT_CONFIGURED");
    }

    @Test
    void aSendWaitsAndIsApprovedFromAnotherCommand() throws Exception {
        add("s3cret");
        var waiting = run(
                Map.of(),
                "memo",
                "ask",
                "--user",
                "dana",
                "--json",
                "send an email to omer@example.com saying the report is ready");
        String runId = waiting.json().get("runId").asText();

        assertThat(waiting.exitCode()).isEqualTo(3);
        assertThat(waiting.json().get("reply").asText())
                .contains("To: omer@example.com")
                .contains("the report is ready");
        assertThat(mail.getManagers().getImapHostManager().getInbox(omer).getMessageCount())
                .isZero();

        var approved = run(Map.of(), "memo", "approve", runId);
        assertThat(approved.exitCode()).as(approved.out() + approved.err()).isZero();
        assertThat(approved.out()).contains("Sent to omer@example.com");
        assertThat(mail.getManagers().getImapHostManager().getInbox(omer).getMessageCount())
                .isEqualTo(1);
        assertThat(run(Map.of(), "memo", "approve", runId).exitCode()).isEqualTo(2);
        assertThat(mail.getManagers().getImapHostManager().getInbox(omer).getMessageCount())
                .isEqualTo(1);

        var removed = run(Map.of(), "memo", "mail", "remove", "--user", "dana");
        assertThat(removed.out()).contains("Removed the mailbox of dana.");
        assertThat(weft("memo", "mail", "remove", "--user", "dana", "--db", db).exitCode())
                .isEqualTo(2);
    }
}
