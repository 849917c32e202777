package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.icegreen.greenmail.store.FolderException;
import com.icegreen.greenmail.store.MailFolder;
import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.weft.core.Json;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.MailAccounts;
import dev.weft.memo.data.MailOperations;
import dev.weft.memo.data.MailSendWorker;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.OperationContext;
import dev.weft.store.Stores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sent once, really: a process sending a mail is killed the moment the SMTP server accepted it, before
 * it recorded anything more, and the step run again with the same idempotency key (as a recovered run
 * runs it) finds the mail and does not send it again. GreenMail serves both processes.
 */
final class MailSentOnceIT {
    private static final String SEND = "{\"operation\": \"send\", \"to\": [\"omer@example.com\"], \"subject\":"
            + " \"Contract\", \"body\": \"Signed copy attached.\"}";

    @TempDir
    Path dir;

    private GreenMail mail;
    private GreenMailUser dana;
    private GreenMailUser omer;
    private String url;

    @BeforeEach
    void start() {
        mail = new GreenMail(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));
        mail.start();
        dana = mail.setUser("dana@example.com", "dana", "s3cret");
        omer = mail.setUser("omer@example.com", "omer", "omer-pw");
        url = "sqlite:" + dir.resolve("memo.db");
        try (RunStore store = Stores.open(url)) {
            MemoData data = MemoData.open(store);
            data.mail().secrets().useKeyFile(dir.resolve("mail.key"));
            data.user("dana", "en", ZoneOffset.UTC, Instant.now());
            data.mail()
                    .add(
                            "dana",
                            "dana@example.com",
                            "127.0.0.1",
                            mail.getImap().getPort(),
                            "127.0.0.1",
                            mail.getSmtp().getPort(),
                            "dana",
                            MailAccounts.Security.NONE,
                            MailAccounts.Auth.PASSWORD,
                            "s3cret",
                            Instant.now());
        }
    }

    @AfterEach
    void stop() {
        mail.stop();
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
                    } catch (jakarta.mail.MessagingException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .toList();
    }

    private JsonNode sendAgain(String key) {
        try (RunStore store = Stores.open(url)) {
            MemoData data = MemoData.open(store);
            data.mail().secrets().useKeyFile(dir.resolve("mail.key"));
            return new MailOperations(data)
                    .apply(
                            (ObjectNode) Json.parse(SEND, "send"),
                            new OperationContext("dana", ZoneOffset.UTC, Instant.now(), key));
        }
    }

    @Test
    void aProcessKilledAfterTheServerAcceptedTheMailLeavesItSentOnceWhenTheStepRunsAgain() throws Exception {
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
        assertThat(worker.exitValue()).as(out).isEqualTo(137);
        assertThat(out).contains("accepted").doesNotContain("returned");
        assertThat(subjects(omer, "INBOX"))
                .as("the server took it before the process died")
                .containsExactly("Contract");

        JsonNode again = sendAgain("run-1/A");
        JsonNode another = sendAgain("run-2/A");

        assertThat(again.path("replayed").asBoolean()).isTrue();
        assertThat(another.path("replayed").asBoolean()).isFalse();
        assertThat(subjects(omer, "INBOX")).as("one mail per step").containsExactly("Contract", "Contract");
        assertThat(subjects(dana, "Sent")).containsExactly("Contract", "Contract");
        assertThat(subjects(dana, "INBOX"))
                .as("the sender's copies are filed in Sent")
                .isEmpty();
    }
}
