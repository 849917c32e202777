package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.store.FolderException;
import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.MailAccounts;
import dev.weft.plan.PlanMode;
import dev.weft.store.Stores;
import jakarta.mail.Flags;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Talking to Memo about email, in English and Hebrew, with a real mailbox (GreenMail in-process):
 * it finds the email the user means, asks which when several match, reads, replies and sends only
 * after the user approves, and says how to connect a mailbox when there is none.
 */
final class MemoMailTest {
    /** Tuesday 24 November 2026, 10:00 in Jerusalem. */
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    private static final ZoneId ZONE = ZoneId.of("Asia/Jerusalem");

    @TempDir
    Path dir;

    private GreenMail mail;
    private GreenMailUser me;
    private GreenMailUser omer;
    private RunStore store;
    private Memo memo;
    private Runner runner;

    @BeforeEach
    void open() throws Exception {
        mail = new GreenMail(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));
        mail.start();
        me = mail.setUser("me@example.com", "me", "pw");
        omer = mail.setUser("omer@example.com", "omer", "omer-pw");
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        memo = Memo.open(store);
        memo.data().mail().secrets().useKeyFile(dir.resolve("mail.key"));
        runner = Runner.builder()
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
        for (String user : List.of("dana", "noa")) {
            memo.data().user(user, user.equals("noa") ? "he" : "en", ZONE, NOW);
            memo.data()
                    .mail()
                    .add(
                            user,
                            "me@example.com",
                            "127.0.0.1",
                            mail.getImap().getPort(),
                            "127.0.0.1",
                            mail.getSmtp().getPort(),
                            "me",
                            MailAccounts.Security.NONE,
                            MailAccounts.Auth.PASSWORD,
                            "pw",
                            NOW);
        }
        arrives("Dana Levi <dana.levi@work.example>", "Quarterly report", "The numbers are in: up 12%.", 26);
        arrives("Dana Levi <dana.levi@work.example>", "Lunch on Thursday?", "Shall we try the new place?", 3);
        arrives("Omer <omer@example.com>", "Plans", "Are we still on for Sunday?", 5);
        arrives("דנה כהן <d.cohen@example.co.il>", "הדוח הרבעוני", "המספרים מצורפים.", 2);
    }

    @AfterEach
    void close() {
        store.close();
        mail.stop();
    }

    /** A message that arrived {@code hoursAgo} in the shared test mailbox. */
    private void arrives(String from, String subject, String body, int hoursAgo) throws Exception {
        MimeMessage message = new MimeMessage(Session.getInstance(new Properties()));
        message.setFrom(new InternetAddress(from));
        message.setRecipients(Message.RecipientType.TO, "me@example.com");
        message.setSubject(subject, "UTF-8");
        message.setText(body, "UTF-8");
        Date at = Date.from(NOW.minus(Duration.ofHours(hoursAgo)));
        message.setSentDate(at);
        message.saveChanges();
        mail.getManagers().getImapHostManager().getInbox(me).appendMessage(message, new Flags(), at);
    }

    private Memo.Reply ask(String user, String message) {
        return memo.ask(runner, new Memo.Request(user, message, Optional.of(ZONE), PlanMode.AUTO));
    }

    private List<MimeMessage> omersInbox() throws FolderException {
        return mail.getManagers().getImapHostManager().getInbox(omer).getMessages().stream()
                .map(m -> m.getMimeMessage())
                .toList();
    }

    @Test
    void findsAndReadsTheEmailTheUserMeans() {
        Memo.Reply listed = ask("dana", "any emails from Dana?");
        Memo.Reply read = ask("dana", "read the email from Dana about the report");

        assertThat(listed.text())
                .startsWith("2 emails:")
                .contains("Dana Levi — Lunch on Thursday? (24 Nov)")
                .contains("Dana Levi — Quarterly report (23 Nov)");
        assertThat(read.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(read.text()).contains("Quarterly report").contains("The numbers are in: up 12%.");
    }

    @Test
    void severalMatchesGetANumberedQuestionAndTheAnswerResumes() {
        Memo.Reply question = ask("dana", "read Dana's email");

        assertThat(question.run().status()).isEqualTo(RunStatus.WAITING);
        assertThat(question.text())
                .contains("Which one did you mean?")
                .contains("1. Dana Levi — Lunch on Thursday?")
                .contains("2. Dana Levi — Quarterly report");
        Memo.Reply read = memo.answer(runner, question.run().runId(), "dana", "2");
        assertThat(read.text()).contains("The numbers are in");
    }

    @Test
    void aReplyWaitsForApprovalShowingWhatGoesAndIsSentOnce() throws Exception {
        Memo.Reply waiting = ask("dana", "reply to Omer: yes, Sunday at 10");

        assertThat(waiting.run().status()).as(waiting.json().toString()).isEqualTo(RunStatus.WAITING);
        assertThat(waiting.text()).contains("reply to Omer — Plans").contains("yes, Sunday at 10");
        assertThat(omersInbox()).isEmpty();

        Memo.Reply sent = memo.approve(runner, waiting.run().runId(), "dana", List.of());
        assertThat(sent.text()).isEqualTo("Sent to omer@example.com: \"Re: Plans\".");
        assertThat(omersInbox()).hasSize(1);
        assertThat(omersInbox().get(0).getContent().toString()).contains("yes, Sunday at 10");
    }

    @Test
    void aNewEmailToSomeoneNamedGoesToTheAddressTheyWroteFrom() throws Exception {
        Memo.Reply waiting = ask("dana", "email Omer that the meeting moved to Thursday");

        assertThat(waiting.text())
                .contains("To: omer@example.com")
                .contains("Subject: The meeting moved to Thursday")
                .contains("Shall I go ahead?");
        memo.approve(runner, waiting.run().runId(), "dana", List.of());
        assertThat(omersInbox()).hasSize(1);

        Memo.Reply rejected = ask("dana", "send an email to omer@example.com saying I'll be late");
        memo.reject(runner, rejected.run().runId(), "dana");
        assertThat(omersInbox()).hasSize(1);
    }

    @Test
    void inHebrewItFindsAHebrewSenderAndAnswersInHebrew() {
        Memo.Reply read = ask("noa", "תקרא את המייל מדנה");
        Memo.Reply fresh = ask("noa", "יש לי מיילים חדשים?");

        assertThat(read.language()).isEqualTo("he");
        assertThat(read.text()).contains("דנה כהן — הדוח הרבעוני").contains("המספרים מצורפים.");
        assertThat(fresh.text()).startsWith("3 מיילים:").doesNotContain("הדוח הרבעוני");
    }

    @Test
    void emailsFoundBecomeOneTaskEach() {
        Memo.Reply reply = ask("dana", "fetch my emails from Dana and then make a task about each");

        assertThat(reply.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(memo.data().tasks().all("dana"))
                .extracting(t -> t.text())
                .containsExactlyInAnyOrder("Follow up: Lunch on Thursday?", "Follow up: Quarterly report");
    }

    @Test
    void withNoMailboxTheReplySaysHowToConnectOneInTheUsersLanguage() {
        memo.data().mail().remove("dana");
        memo.data().mail().remove("noa");

        assertThat(ask("dana", "check my inbox").text())
                .startsWith("I can't reach your email: no mailbox is connected.")
                .contains("weft memo mail add --user dana");
        assertThat(ask("noa", "יש לי מיילים חדשים?").text())
                .startsWith("אין לי גישה למייל שלך")
                .contains("weft memo mail add --user noa");
    }
}
