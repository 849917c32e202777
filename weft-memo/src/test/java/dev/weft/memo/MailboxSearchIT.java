package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.spi.RunStore;
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

    private MailFixture fixture;
    private RunStore store;

    @AfterEach
    void stop() {
        if (store != null) {
            store.close();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void aMailboxOfTenThousandMessagesIsSearchedOnTheServer() throws Exception {
        fixture = MailFixture.start(dir);
        store = Stores.open(fixture.url);
        MemoData data = fixture.data(store);
        fixture.addDana(data, fixture.smtpPort(), ZoneId.of("Asia/Jerusalem"), NOW);
        MailOperations operations = new MailOperations(data);
        var inbox = fixture.mail.getManagers().getImapHostManager().getInbox(fixture.dana);
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
