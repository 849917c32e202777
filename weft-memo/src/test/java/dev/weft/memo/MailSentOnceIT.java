package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.MailOperations;
import dev.weft.memo.data.OperationContext;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
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
    @TempDir
    Path dir;

    private MailFixture fixture;

    @BeforeEach
    void start() {
        fixture = MailFixture.start(dir);
        fixture.danaSendsThrough(fixture.smtpPort(), Instant.now());
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private JsonNode sendAgain(String key) {
        try (RunStore store = Stores.open(fixture.url)) {
            return new MailOperations(fixture.data(store))
                    .apply(
                            (ObjectNode) Json.parse(MailFixture.SEND, "send"),
                            new OperationContext("dana", ZoneOffset.UTC, Instant.now(), key));
        }
    }

    @Test
    void aProcessKilledAfterTheServerAcceptedTheMailLeavesItSentOnceWhenTheStepRunsAgain() throws Exception {
        MailFixture.Killed worker = fixture.sendAndDieOnAcceptance("run-1/A");

        assertThat(worker.exitValue()).as(worker.output()).isEqualTo(137);
        assertThat(worker.output()).contains("accepted").doesNotContain("returned");
        assertThat(fixture.subjects(fixture.omer, "INBOX"))
                .as("the server took it before the process died")
                .containsExactly("Contract");

        JsonNode again = sendAgain("run-1/A");
        JsonNode another = sendAgain("run-2/A");

        assertThat(again.path("replayed").asBoolean()).isTrue();
        assertThat(another.path("replayed").asBoolean()).isFalse();
        assertThat(fixture.subjects(fixture.omer, "INBOX"))
                .as("one mail per step")
                .containsExactly("Contract", "Contract");
        assertThat(fixture.subjects(fixture.dana, "Sent")).containsExactly("Contract", "Contract");
        assertThat(fixture.subjects(fixture.dana, "INBOX"))
                .as("the sender's copies are filed in Sent")
                .isEmpty();
    }
}
