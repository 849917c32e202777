package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.weft.core.Json;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.MailAccounts;
import dev.weft.memo.data.MailOperations;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.OperationContext;
import dev.weft.store.Stores;
import jakarta.mail.Flags;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Date;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A mailbox of 10,000 messages in GreenMail, searched on the server and read a page at a time. */
final class MailboxSearchIT {
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    @TempDir
    Path dir;

    private GreenMail mail;
    private RunStore store;

    @AfterEach
    void stop() {
        if (store != null) {
            store.close();
        }
        if (mail != null) {
            mail.stop();
        }
    }

    @Test
    void aMailboxOfTenThousandMessagesIsSearchedOnTheServer() throws Exception {
        mail = new GreenMail(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));
        mail.start();
        GreenMailUser dana = mail.setUser("dana@example.com", "dana", "s3cret");
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        MemoData data = MemoData.open(store);
        data.mail().secrets().useKeyFile(dir.resolve("mail.key"));
        data.user("dana", "en", ZoneId.of("Asia/Jerusalem"), NOW);
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
                        NOW);
        MailOperations operations = new MailOperations(data);
        var inbox = mail.getManagers().getImapHostManager().getInbox(dana);
        Session session = Session.getInstance(new Properties());
        for (int i = 0; i < 10_000; i++) {
            MimeMessage message = new MimeMessage(session);
            message.setFrom(
                    new InternetAddress(i % 1000 == 7 ? "dana.levi@work.example" : "list" + i % 50 + "@example.com"));
            message.setSubject(i % 1000 == 7 ? "Report " + i : "Digest " + i);
            message.setText("body " + i);
            message.saveChanges();
            inbox.appendMessage(message, new Flags(), Date.from(NOW.minusSeconds(10_000 - i)));
        }
        OperationContext context = new OperationContext("dana", ZoneId.of("Asia/Jerusalem"), NOW, "run-1/A");

        JsonNode reports = operations.apply(
                (ObjectNode) Json.parse(
                        "{\"operation\": \"search\", \"from\": \"dana.levi\", \"subject\": \"report\"}", "a"),
                context);
        assertThat(reports.path("total").asInt()).isEqualTo(10);
        assertThat(reports.path("emails")).hasSize(10);
        assertThat(reports.path("emails").get(0).path("subject").asText()).isEqualTo("Report 9007");

        JsonNode newest = operations.apply(
                (ObjectNode) Json.parse("{\"operation\": \"search\", \"maxResults\": 5}", "a"), context);
        assertThat(newest.path("total").asInt()).isEqualTo(10_000);
        assertThat(newest.path("emails")).hasSize(5);
        assertThat(newest.path("emails").get(0).path("subject").asText()).isEqualTo("Digest 9999");
    }
}
