package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.TimeSource;
import dev.weft.core.TransientException;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.MailAccounts;
import dev.weft.memo.data.MailOperations;
import dev.weft.memo.data.MemoData;
import dev.weft.plan.ApprovalRequiredException;
import dev.weft.plan.Risk;
import dev.weft.plan.ToolContext;
import dev.weft.plan.ToolRegistry;
import dev.weft.store.Stores;
import jakarta.mail.Flags;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Date;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memo's mail tool against GreenMail's IMAP and SMTP servers started in this JVM, in plain text and
 * over TLS: every operation, sending once per step, approval before a send, and servers that are down
 * or refuse the login.
 */
final class MailOperationsTest {
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");
    private static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");
    private static final TimeSource CLOCK = new TimeSource() {
        @Override
        public Instant now() {
            return NOW;
        }

        @Override
        public void sleep(Duration duration) {}
    };

    @TempDir
    Path dir;

    private GreenMail mail;
    private GreenMailUser dana;
    private GreenMailUser omer;
    private RunStore store;
    private MemoData data;
    private ToolRegistry tools;
    private final AtomicInteger calls = new AtomicInteger();

    /** GreenMail with {@code setups}, Memo over SQLite, and dana's account on the mail servers. */
    private void start(ServerSetup[] setups, MailAccounts.Security security) {
        mail = new GreenMail(ServerSetup.dynamicPort(setups));
        mail.start();
        dana = mail.setUser("dana@example.com", "dana", "s3cret");
        omer = mail.setUser("omer@example.com", "omer", "omer-pw");
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        data = MemoData.open(store);
        data.mail().secrets().useKeyFile(dir.resolve("mail.key"));
        data.user("dana", "en", JERUSALEM, NOW);
        data.user("omer", "he", JERUSALEM, NOW);
        boolean tls = security == MailAccounts.Security.TLS;
        data.mail()
                .add(
                        "dana",
                        "dana@example.com",
                        "127.0.0.1",
                        tls ? mail.getImaps().getPort() : mail.getImap().getPort(),
                        "127.0.0.1",
                        tls ? mail.getSmtps().getPort() : mail.getSmtp().getPort(),
                        "dana",
                        security,
                        MailAccounts.Auth.PASSWORD,
                        "s3cret",
                        NOW);
        Properties trust = new Properties();
        trust.put("mail.imaps.ssl.trust", "*");
        trust.put("mail.smtps.ssl.trust", "*");
        trust.put("mail.imaps.ssl.checkserveridentity", "false");
        trust.put("mail.smtps.ssl.checkserveridentity", "false");
        tools = new MemoTools(data, new Reminders(data, java.time.Instant::now), new MailOperations(data, trust))
                .registry();
    }

    private void startPlain() {
        start(ServerSetupTest.SMTP_IMAP, MailAccounts.Security.NONE);
    }

    @AfterEach
    void stop() {
        if (store != null) {
            store.close();
        }
        if (mail != null) {
            mail.stop();
        }
    }

    /** A call as an approved plan step makes it: run {@code run}, step A. */
    private JsonNode call(String user, String run, String args) {
        return tools.call(
                MemoTools.MAIL,
                (ObjectNode) Json.parse(args, "args"),
                ToolContext.detached(run, Optional.of(user), "A", CLOCK));
    }

    private JsonNode call(String user, String args) {
        return call(user, "run-" + calls.incrementAndGet(), args);
    }

    /** Puts a message straight into dana's INBOX, as if it had arrived. */
    private void deliver(String from, String subject, String body, Instant at) throws Exception {
        MimeMessage message = new MimeMessage(Session.getInstance(new Properties()));
        message.setFrom(new InternetAddress(from));
        message.setRecipients(Message.RecipientType.TO, "dana@example.com");
        message.setSubject(subject, "UTF-8");
        message.setText(body, "UTF-8");
        message.setSentDate(Date.from(at));
        message.saveChanges();
        mail.getManagers().getImapHostManager().getInbox(dana).appendMessage(message, new Flags(), Date.from(at));
    }

    /** What reached omer's INBOX. */
    private java.util.List<MimeMessage> omersInbox() {
        try {
            return mail.getManagers().getImapHostManager().getInbox(omer).getMessages().stream()
                    .map(m -> m.getMimeMessage())
                    .toList();
        } catch (com.icegreen.greenmail.store.FolderException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ErrorCode codeOf(Throwable e) {
        return ((WeftException) e).code();
    }

    private String idOf(String subject) {
        JsonNode found = call("dana", "{\"operation\": \"search\", \"subject\": \"" + subject + "\"}");
        assertThat(found.path("emails")).hasSize(1);
        return found.path("emails").get(0).path("id").asText();
    }

    @Test
    void searchesByWhatPeopleSayAndReadsAMessage() throws Exception {
        startPlain();
        deliver(
                "Dana Levi <dana.levi@work.example>",
                "Quarterly report",
                "The numbers are in.",
                NOW.minusSeconds(86400));
        deliver("bank@example.com", "Your statement", "Nothing to see.", NOW.minusSeconds(3 * 86400));
        deliver("dana.levi@work.example", "Lunch?", "Tomorrow at noon", NOW.minusSeconds(3600));

        JsonNode fromDana = call("dana", "{\"operation\": \"search\", \"from\": \"dana.levi\"}");
        assertThat(fromDana.path("total").asInt()).isEqualTo(2);
        assertThat(fromDana.path("emails").get(0).path("subject").asText()).isEqualTo("Lunch?");
        JsonNode report = call("dana", "{\"operation\": \"search\", \"from\": \"dana\", \"query\": \"report\"}");
        assertThat(report.path("emails")).hasSize(1);
        JsonNode recent = call("dana", "{\"operation\": \"search\", \"since\": \"2026-11-23\"}");
        assertThat(recent.path("total").asInt()).isEqualTo(2);
        JsonNode byBody = call("dana", "{\"operation\": \"search\", \"query\": \"noon\"}");
        assertThat(byBody.path("emails").get(0).path("subject").asText()).isEqualTo("Lunch?");

        String id = idOf("Quarterly report");
        JsonNode read = call("dana", "{\"operation\": \"read\", \"emailId\": \"" + id + "\"}");
        assertThat(read.path("email").path("body").asText()).contains("The numbers are in.");
        assertThat(read.path("email").path("from").asText()).contains("dana.levi@work.example");
        JsonNode unread = call("dana", "{\"operation\": \"search\", \"unread\": true}");
        assertThat(unread.path("total").asInt()).isEqualTo(2);
    }

    @Test
    void flagsLabelsArchivesAndDeletes() throws Exception {
        startPlain();
        deliver("a@example.com", "Invoice 7", "Pay by Friday", NOW);
        deliver("b@example.com", "Newsletter", "News", NOW);
        String invoice = idOf("Invoice 7");

        call("dana", "{\"operation\": \"star\", \"emailId\": \"" + invoice + "\"}");
        call("dana", "{\"operation\": \"markRead\", \"emailId\": \"" + invoice + "\"}");
        JsonNode labelled =
                call("dana", "{\"operation\": \"label\", \"emailId\": \"" + invoice + "\", \"labels\": [\"bills\"]}");
        assertThat(labelled.path("email").path("starred").asBoolean()).isTrue();
        assertThat(labelled.path("email").path("unread").asBoolean()).isFalse();
        assertThat(labelled.path("email").path("labels").toString()).contains("bills");
        call("dana", "{\"operation\": \"unstar\", \"emailId\": \"" + invoice + "\"}");
        JsonNode unread = call("dana", "{\"operation\": \"markUnread\", \"emailId\": \"" + invoice + "\"}");
        assertThat(unread.path("email").path("starred").asBoolean()).isFalse();
        assertThat(unread.path("email").path("unread").asBoolean()).isTrue();

        JsonNode archived = call("dana", "{\"operation\": \"archive\", \"emailId\": \"" + invoice + "\"}");
        assertThat(archived.path("folder").asText()).isEqualTo("Archive");
        assertThat(call("dana", "{\"operation\": \"search\", \"folder\": \"Archive\"}")
                        .path("total")
                        .asInt())
                .isEqualTo(1);
        String newsletter = idOf("Newsletter");
        call("dana", "{\"operation\": \"delete\", \"emailId\": \"" + newsletter + "\"}");
        assertThat(call("dana", "{\"operation\": \"search\"}").path("total").asInt())
                .isZero();
        assertThat(call("dana", "{\"operation\": \"search\", \"folder\": \"Trash\"}")
                        .path("total")
                        .asInt())
                .isEqualTo(1);
        assertThatThrownBy(() -> call("dana", "{\"operation\": \"read\", \"emailId\": \"" + newsletter + "\"}"))
                .extracting(MailOperationsTest::codeOf)
                .isEqualTo(ErrorCode.E_NOT_FOUND);
    }

    @Test
    void sendsRepliesAndForwardsWithACopyInSent() throws Exception {
        startPlain();
        deliver("omer@example.com", "Plans", "Shall we meet Sunday?", NOW);

        JsonNode preview = call(
                "dana",
                "{\"operation\": \"compose\", \"to\": \"omer@example.com\", \"subject\": \"Hi\", \"body\": \"Hello\"}");
        assertThat(preview.path("preview").path("from").asText()).isEqualTo("dana@example.com");
        assertThat(omersInbox()).isEmpty();

        JsonNode sent = call(
                "dana",
                "{\"operation\": \"send\", \"to\": [\"omer@example.com\"], \"subject\": \"שלום\", \"body\":"
                        + " \"מה שלומך?\"}");
        assertThat(sent.path("replayed").asBoolean()).isFalse();
        assertThat(omersInbox()).hasSize(1);
        assertThat(omersInbox().get(0).getSubject()).isEqualTo("שלום");

        String plans = idOf("Plans");
        call("dana", "{\"operation\": \"reply\", \"emailId\": \"" + plans + "\", \"body\": \"Sunday works.\"}");
        MimeMessage reply = omersInbox().get(1);
        assertThat(reply.getSubject()).isEqualTo("Re: Plans");
        assertThat(reply.getHeader("In-Reply-To")[0]).isEqualTo(plans);
        assertThat(reply.getHeader("References")[0]).contains(plans);

        call(
                "dana",
                "{\"operation\": \"forward\", \"emailId\": \"" + plans
                        + "\", \"to\": \"omer@example.com\", \"body\": \"FYI\"}");
        MimeMessage forwarded = omersInbox().get(2);
        assertThat(forwarded.getSubject()).isEqualTo("Fwd: Plans");
        assertThat(String.valueOf(forwarded.getContent())).contains("FYI").contains("Shall we meet Sunday?");

        assertThat(call("dana", "{\"operation\": \"search\", \"folder\": \"Sent\"}")
                        .path("total")
                        .asInt())
                .isEqualTo(3);
    }

    @Test
    void draftsAreKeptListedSentAndDeleted() throws Exception {
        startPlain();
        JsonNode draft = call(
                "dana",
                "{\"operation\": \"createDraft\", \"to\": \"omer@example.com\", \"subject\": \"Agenda\", \"body\":"
                        + " \"1. Budget\"}");
        String id = draft.path("draft").path("id").asText();
        JsonNode other =
                call("dana", "{\"operation\": \"createDraft\", \"subject\": \"Half-written\", \"body\": \"...\"}");
        assertThat(call("dana", "{\"operation\": \"listDrafts\"}").path("total").asInt())
                .isEqualTo(2);

        call("dana", "{\"operation\": \"sendDraft\", \"draftId\": \"" + id + "\"}");
        assertThat(omersInbox()).hasSize(1);
        assertThat(omersInbox().get(0).getSubject()).isEqualTo("Agenda");
        call(
                "dana",
                "{\"operation\": \"deleteDraft\", \"draftId\": \""
                        + other.path("draft").path("id").asText() + "\"}");
        assertThat(call("dana", "{\"operation\": \"listDrafts\"}").path("total").asInt())
                .isZero();
    }

    @Test
    void aStepThatRunsAgainNeverSendsTwice() throws Exception {
        startPlain();
        String send = "{\"operation\": \"send\", \"to\": \"omer@example.com\", \"subject\": \"Once\", \"body\": \"x\"}";

        JsonNode first = call("dana", "run-7", send);
        // The process died before the run recorded the step: the step runs again with the same key.
        JsonNode again = call("dana", "run-7", send);
        assertThat(again.path("replayed").asBoolean()).isTrue();
        assertThat(again.path("sent").path("id").asText())
                .isEqualTo(first.path("sent").path("id").asText());
        assertThat(omersInbox()).hasSize(1);

        // Even with Memo's record of it gone, the copy in Sent is found by its Message-ID.
        data.database().write("forget", c -> c.createStatement().executeUpdate("DELETE FROM memo_mail_sent"));
        assertThat(call("dana", "run-7", send).path("replayed").asBoolean()).isTrue();
        assertThat(omersInbox()).hasSize(1);

        call("dana", "run-8", send);
        assertThat(omersInbox()).hasSize(2);
    }

    @Test
    void sendingWaitsForAPersonAndReadingDoesNot() {
        startPlain();
        var tool = tools.find(MemoTools.MAIL).orElseThrow();
        for (String operation : MailOperations.OPERATIONS) {
            Risk expected = MailOperations.HIGH_RISK.contains(operation) ? Risk.HIGH : Risk.LOW;
            assertThat(tool.risk(Json.parse("{\"operation\": \"" + operation + "\"}", "a")))
                    .as(operation)
                    .isEqualTo(expected);
        }
        ToolContext unapproved =
                ToolContext.detached("run-9", Optional.of("dana"), "A", CLOCK).unapproved();
        assertThatThrownBy(() -> tools.call(
                        MemoTools.MAIL,
                        (ObjectNode) Json.parse(
                                "{\"operation\": \"send\", \"to\": \"omer@example.com\", \"body\": \"x\"}", "a"),
                        unapproved))
                .isInstanceOf(ApprovalRequiredException.class);
        assertThat(omersInbox()).isEmpty();
        assertThat(tools.call(MemoTools.MAIL, (ObjectNode) Json.parse("{\"operation\": \"search\"}", "a"), unapproved)
                        .path("total")
                        .asInt())
                .isZero();
    }

    @Test
    void worksOverTls() throws Exception {
        start(ServerSetupTest.SMTPS_IMAPS, MailAccounts.Security.TLS);
        deliver("bank@example.com", "Statement", "Balance", NOW);
        assertThat(idOf("Statement")).isNotBlank();
        call("dana", "{\"operation\": \"send\", \"to\": \"omer@example.com\", \"subject\": \"TLS\", \"body\": \"x\"}");
        assertThat(omersInbox()).hasSize(1);
        assertThat(new MailOperations(data, trustAll()).check("dana"))
                .allSatisfy(line -> assertThat(line).contains(": ok"));
    }

    private static Properties trustAll() {
        Properties trust = new Properties();
        trust.put("mail.imaps.ssl.trust", "*");
        trust.put("mail.smtps.ssl.trust", "*");
        trust.put("mail.imaps.ssl.checkserveridentity", "false");
        trust.put("mail.smtps.ssl.checkserveridentity", "false");
        return trust;
    }

    @Test
    void badInputAndMissingAccountsGetClearCodesAndSendNothing() {
        startPlain();
        assertThatThrownBy(() -> call("omer", "{\"operation\": \"search\"}"))
                .extracting(MailOperationsTest::codeOf)
                .isEqualTo(ErrorCode.E_MAIL_NOT_CONFIGURED);
        assertThatThrownBy(() -> call("dana", "{\"operation\": \"send\", \"to\": \"not an address\", \"body\": \"x\"}"))
                .extracting(MailOperationsTest::codeOf)
                .isEqualTo(ErrorCode.E_ARGS_INVALID);
        assertThatThrownBy(() -> call("dana", "{\"operation\": \"send\", \"to\": \"omer@example.com\"}"))
                .extracting(MailOperationsTest::codeOf)
                .isEqualTo(ErrorCode.E_ARGS_INVALID);
        assertThatThrownBy(() -> call("dana", "{\"operation\": \"explode\"}"))
                .extracting(MailOperationsTest::codeOf)
                .isEqualTo(ErrorCode.E_ARGS_INVALID);
        assertThatThrownBy(() -> call("dana", "{\"operation\": \"read\"}"))
                .extracting(MailOperationsTest::codeOf)
                .isEqualTo(ErrorCode.E_ARGS_INVALID);
        assertThat(omersInbox()).isEmpty();
    }

    @Test
    void aServerThatIsDownIsTransientAndARefusedLoginIsNot() throws Exception {
        startPlain();
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        data.mail()
                .add(
                        "omer",
                        "omer@example.com",
                        "127.0.0.1",
                        closed,
                        "127.0.0.1",
                        closed,
                        "omer",
                        MailAccounts.Security.NONE,
                        MailAccounts.Auth.PASSWORD,
                        "omer-pw",
                        NOW);
        assertThatThrownBy(() -> call("omer", "{\"operation\": \"search\"}"))
                .isInstanceOf(TransientException.class)
                .extracting(MailOperationsTest::codeOf)
                .isEqualTo(ErrorCode.E_MAIL_UNAVAILABLE);

        data.mail()
                .add(
                        "omer",
                        "omer@example.com",
                        "127.0.0.1",
                        mail.getImap().getPort(),
                        "127.0.0.1",
                        mail.getSmtp().getPort(),
                        "omer",
                        MailAccounts.Security.NONE,
                        MailAccounts.Auth.PASSWORD,
                        "wrong",
                        NOW);
        assertThatThrownBy(() -> call("omer", "{\"operation\": \"search\"}"))
                .isNotInstanceOf(TransientException.class)
                .hasMessageContaining("refused the login")
                .extracting(MailOperationsTest::codeOf)
                .isEqualTo(ErrorCode.E_MAIL_UNAVAILABLE);
        assertThat(new MailOperations(data).check("omer"))
                .containsExactly(
                        "IMAP 127.0.0.1:" + mail.getImap().getPort()
                                + " refused the login of omer: check the password or token ('weft memo mail add' to"
                                + " change it)",
                        "SMTP 127.0.0.1:" + mail.getSmtp().getPort()
                                + " refused the login of omer: check the password or token ('weft memo mail add' to"
                                + " change it)");
    }

    @Test
    void theSecretIsEncryptedAtRestUnderAKeyOnlyItsOwnerReads() throws Exception {
        startPlain();
        String stored = data.database().read("secret", c -> {
            try (var rows =
                    c.createStatement().executeQuery("SELECT secret FROM memo_mail_accounts WHERE user_id = 'dana'")) {
                rows.next();
                return rows.getString(1);
            }
        });
        assertThat(stored).doesNotContain("s3cret");
        Path key = dir.resolve("mail.key");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key)))
                .isEqualTo("rw-------");
        assertThat(data.mail().secret(data.mail().require("dana"))).isEqualTo("s3cret");
    }

    @Test
    void newMailIsAnnouncedAsItArrives() throws Exception {
        startPlain();
        java.util.concurrent.BlockingQueue<JsonNode> arrived = new java.util.concurrent.LinkedBlockingQueue<>();
        AutoCloseable watch = new MailOperations(data).watch("dana", JERUSALEM, arrived::add);
        try {
            // The watch is in IDLE once its connection is up; mail sent before that is not new to it.
            Thread.sleep(1500);
            com.icegreen.greenmail.util.GreenMailUtil.sendTextEmail(
                    "dana@example.com",
                    "omer@example.com",
                    "Dinner tonight?",
                    "8pm?",
                    mail.getSmtp().getServerSetup());
            JsonNode email = arrived.poll(20, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(email).isNotNull();
            assertThat(email.path("subject").asText()).isEqualTo("Dinner tonight?");
            assertThat(email.path("from").asText()).isEqualTo("omer@example.com");
        } finally {
            watch.close();
        }
        assertThat(call("dana", "{\"operation\": \"search\", \"unread\": true}")
                        .path("total")
                        .asInt())
                .isEqualTo(1);
    }
}
