package dev.weft.mailflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.TransientException;
import dev.weft.core.spi.RunStore;
import jakarta.mail.Folder;
import jakarta.mail.Message;
import jakarta.mail.Store;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replies sent over a real SMTP server (GreenMail in-process) to the sender's real mailbox: threaded,
 * marked automatic, sent once however often the step runs, and never when the run was cancelled or
 * the reply rejected.
 */
final class SendingIT {
    @TempDir
    Path dir;

    private GreenMail mail;
    private com.icegreen.greenmail.user.GreenMailUser olive;
    private RunStore store;
    private Runner runner;

    @BeforeEach
    void open() {
        mail = new GreenMail(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));
        mail.start();
        olive = mail.setUser("events@olivegrove.example", "olive", "olive-pw");
        mail.setUser("dana.cohen@example.com", "dana", "dana-pw");
        store = Fixtures.sqlite(dir);
        runner = Runner.builder()
                .store(store)
                .time(new TimeSource() {
                    @Override
                    public Instant now() {
                        return Instant.now();
                    }

                    @Override
                    public void sleep(Duration duration) {}
                })
                .build();
    }

    @AfterEach
    void close() {
        store.close();
        mail.stop();
    }

    private Mailflow mailflow(Mailflow.Builder builder, Venue.SendMode send) {
        Mailflow mailflow =
                builder.store(store).keyFile(dir.resolve("mail.key")).build();
        Mailflow.VenueSettings olive = Fixtures.oliveGrove("olive", Optional.of("olive-org"));
        mailflow.addVenue(new Mailflow.VenueSettings(
                olive.id(),
                olive.organization(),
                olive.name(),
                olive.address(),
                olive.zone(),
                olive.language(),
                Optional.of(send),
                olive.rooms(),
                olive.bookings(),
                Optional.of(new Mailflow.MailboxSettings(
                        "127.0.0.1",
                        mail.getImap().getPort(),
                        "127.0.0.1",
                        mail.getSmtp().getPort(),
                        "olive",
                        Venue.Security.NONE,
                        "olive-pw")),
                Optional.empty(),
                Optional.empty()));
        return mailflow;
    }

    private MimeMessage[] danasInbox() throws Exception {
        return inbox("dana", "dana-pw");
    }

    /** What a user finds in their INBOX over IMAP. */
    private MimeMessage[] inbox(String login, String password) throws Exception {
        try (Store imap = mail.getImap().createStore()) {
            imap.connect(login, password);
            Folder inbox = imap.getFolder("INBOX");
            inbox.open(Folder.READ_ONLY);
            Message[] messages = inbox.getMessages();
            MimeMessage[] copies = new MimeMessage[messages.length];
            for (int i = 0; i < messages.length; i++) {
                copies[i] = new MimeMessage((MimeMessage) messages[i]);
            }
            return copies;
        }
    }

    @Test
    void anInquiryGetsOneThreadedReplyInItsLanguageWithTheFreeRooms() throws Exception {
        Mailflow mailflow = mailflow(Mailflow.builder(), Venue.SendMode.AUTO);
        JsonNode out = mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-en-plain.eml"))
                .toJson();
        assertThat(out.path("sent").asBoolean()).isTrue();
        MimeMessage[] inbox = danasInbox();
        assertThat(inbox).hasSize(1);
        MimeMessage reply = inbox[0];
        assertThat(reply.getSubject()).isEqualTo("Re: Wedding on 12 December");
        assertThat(reply.getHeader("In-Reply-To")[0]).isEqualTo("<CAF7x1=inquiry-en-plain@mail.example.com>");
        assertThat(reply.getHeader("References")[0]).contains("<CAF7x1=inquiry-en-plain@mail.example.com>");
        assertThat(reply.getHeader("Auto-Submitted")[0]).isEqualTo("auto-replied");
        assertThat(reply.getFrom()[0].toString()).contains("events@olivegrove.example");
        assertThat(String.valueOf(reply.getContent())).contains("the Garden (up to 150 guests)");
        // the same email again (a redelivered webhook, or by IMAP) sends nothing more
        JsonNode again = mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-en-plain.eml"))
                .toJson();
        assertThat(again.path("duplicate").asBoolean()).isTrue();
        assertThat(danasInbox()).hasSize(1);
        // and the reply, come back to the venue's mailbox, is its own: filtered
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        reply.writeTo(bytes);
        JsonNode own = mailflow.deliver(
                        runner,
                        new Mailflow.Delivery(
                                "olive", new Mailflow.Source.Raw(bytes.toByteArray()), "imap", Optional.empty(), false))
                .toJson();
        assertThat(own.path("filtered").asText()).startsWith("own:");
    }

    @Test
    void aReplyInHebrewIsSentInHebrew() throws Exception {
        mail.setUser("michal@walla.example", "michal", "michal-pw");
        Mailflow mailflow = mailflow(Mailflow.builder(), Venue.SendMode.AUTO);
        mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-he-windows-1255.eml"));
        MimeMessage[] received = inbox("michal", "michal-pw");
        assertThat(received).hasSize(1);
        assertThat(String.valueOf(received[0].getContent())).startsWith("שלום מיכל,");
        assertThat(received[0].getHeader("Content-Language")[0]).isEqualTo("he");
    }

    /**
     * The window between the SMTP server taking the reply and its copy being filed in Sent (issue #35):
     * main's test cut the sender only after the copy was filed, and a sender cut here sent the reply
     * again. Now the attempt made again finds no copy and asks a person; nothing is sent twice.
     */
    @Test
    void aSenderCutAfterTheServerTookTheReplyAndBeforeItsCopyIsFiledAsksAPersonInsteadOfSendingAgain()
            throws Exception {
        AtomicInteger smtp = new AtomicInteger();
        Mailflow mailflow = mailflow(
                Mailflow.builder().afterSmtp(() -> {
                    if (smtp.incrementAndGet() == 1) {
                        throw new TransientException(
                                ErrorCode.E_MAIL_UNAVAILABLE, "the process died after SMTP took the reply");
                    }
                }),
                Venue.SendMode.AUTO);
        JsonNode out = mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-en-plain.eml"))
                .toJson();
        assertThat(out.path("status").asText()).isEqualTo("WAITING");
        assertThat(out.path("code").asText()).isEqualTo("E_OUTCOME_UNKNOWN");
        assertThat(out.path("question").asText()).isEqualTo("may have been sent — send again?");
        assertThat(smtp.get()).isEqualTo(1);
        assertThat(danasInbox()).hasSize(1);

        String runId = out.path("runId").asText();
        var rejected = runner.resume(
                mailflow.graphOf(store.findRun(runId).orElseThrow()).orElseThrow(),
                runId,
                Json.object().put("approved", false).put("by", "noa"));

        assertThat(rejected.status()).isEqualTo(RunStatus.FAILED);
        assertThat(rejected.run().error().orElseThrow().code()).isEqualTo(ErrorCode.E_OUTCOME_UNKNOWN);
        assertThat(smtp.get()).isEqualTo(1);
        assertThat(danasInbox()).hasSize(1);
    }

    @Test
    void aVenueThatApprovesSendsOnlyOnceApprovedAndNothingWhenRejectedOrCancelled() throws Exception {
        Mailflow mailflow = mailflow(Mailflow.builder(), Venue.SendMode.APPROVAL);
        JsonNode waiting = mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-en-plain.eml"))
                .toJson();
        assertThat(waiting.path("status").asText()).isEqualTo("WAITING");
        assertThat(waiting.path("reply").path("offered"))
                .extracting(JsonNode::asText)
                .containsExactly("Garden");
        assertThat(danasInbox()).isEmpty();
        String runId = waiting.path("runId").asText();
        var run = store.findRun(runId).orElseThrow();
        var graph = mailflow.graphOf(run).orElseThrow();
        var approved = Fixtures.runner(store)
                .resume(graph, runId, Json.object().put("approved", true).put("by", "noa"));
        assertThat(approved.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(Processed.sent(approved)).isTrue();
        assertThat(danasInbox()).hasSize(1);

        JsonNode second = mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-html-only.eml"))
                .toJson();
        var rejected = runner.resume(
                mailflow.graphOf(store.findRun(second.path("runId").asText()).orElseThrow())
                        .orElseThrow(),
                second.path("runId").asText(),
                Json.object().put("approved", false));
        assertThat(Processed.sent(rejected)).isFalse();

        JsonNode third = mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-multipart-alternative.eml"))
                .toJson();
        var cancelled = runner.cancel(third.path("runId").asText());
        assertThat(cancelled.status()).isEqualTo(RunStatus.CANCELLED);
        mail.setUser("mark@example.org", "mark", "mark-pw");
        mail.setUser("noa@acme.example", "noa", "noa-pw");
        assertThat(inbox("mark", "mark-pw")).isEmpty();
        assertThat(inbox("noa", "noa-pw")).isEmpty();
        assertThat(danasInbox()).hasSize(1);
    }

    @Test
    void watchingTheMailboxAnswersWhatArrivesOnceEvenIfAWebhookBroughtItToo() throws Exception {
        Mailflow mailflow = mailflow(Mailflow.builder(), Venue.SendMode.AUTO);
        java.util.concurrent.LinkedBlockingQueue<Processed> seen = new java.util.concurrent.LinkedBlockingQueue<>();
        try (MailboxWatch watch = MailboxWatch.start(mailflow, runner, "olive", seen::add)) {
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!watch.listening() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(watch.listening()).isTrue();
            // the webhook delivered it first
            mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-en-plain.eml"));
            MimeMessage incoming = new MimeMessage(
                    jakarta.mail.Session.getInstance(new java.util.Properties()),
                    new java.io.ByteArrayInputStream(Fixtures.email("inquiry-en-plain.eml")));
            olive.deliver(incoming);
            Processed processed = seen.poll(20, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(processed).isNotNull();
            assertThat(processed.duplicate()).isTrue();
            Processed reply = seen.poll(20, java.util.concurrent.TimeUnit.SECONDS);
            if (reply != null) {
                assertThat(reply.filtered()).isPresent();
            }
        }
        assertThat(danasInbox()).hasSize(1);
        assertThat(store.listRuns(Optional.empty())).hasSize(1);
    }
}
