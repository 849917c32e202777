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
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.MailAccounts;
import dev.weft.memo.data.MailOperations;
import dev.weft.memo.data.MemoData;
import dev.weft.oauth.AuthorizationServer;
import dev.weft.oauth.Browser;
import dev.weft.oauth.FakeAuthorizationServer;
import dev.weft.oauth.Grant;
import dev.weft.oauth.ManualClock;
import dev.weft.oauth.OAuthClient;
import dev.weft.oauth.OAuthProvider;
import dev.weft.plan.ToolContext;
import dev.weft.plan.ToolRegistry;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A mailbox signed in with OAuth whose server refuses the kept access token although the clock still
 * calls it good (the provider ended it early, or the server's clock runs ahead): the IMAP or SMTP login
 * is made once more with a token refreshed at the fake authorization server, as a CalDAV sync is. IMAP
 * and SMTP are two GreenMail servers here, each taking only the token it was last given, so that one can
 * refuse while the other takes it.
 */
final class SignedInMailRefusedTokenTest {
    private static final Instant NOW = Instant.parse("2026-11-28T08:00:00Z");

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(NOW);
    private final List<String> issued = new CopyOnWriteArrayList<>();
    private final AtomicInteger runs = new AtomicInteger();
    private FakeAuthorizationServer microsoft;
    private GreenMail imap;
    private GreenMail smtp;
    private GreenMailUser noaImap;
    private GreenMailUser noaSmtp;
    private GreenMailUser omer;
    private RunStore store;
    private MemoData data;
    private ToolRegistry tools;

    @BeforeEach
    void open() {
        microsoft = FakeAuthorizationServer.start("memo-public", Optional.empty(), "noa@contoso.example", clock);
        imap = new GreenMail(ServerSetup.dynamicPort(new ServerSetup[] {ServerSetupTest.IMAP}));
        imap.getUserManager().setAuthRequired(true);
        imap.start();
        smtp = new GreenMail(ServerSetup.dynamicPort(new ServerSetup[] {ServerSetupTest.SMTP}));
        smtp.getUserManager().setAuthRequired(true);
        smtp.start();
        noaImap = imap.setUser("noa@contoso.example", "noa@contoso.example", "no token yet");
        noaSmtp = smtp.setUser("noa@contoso.example", "noa@contoso.example", "no token yet");
        omer = smtp.setUser("omer@example.com", "omer@example.com", "omer-pw");
        // Each server takes the access token issued last, as a provider takes only live tokens.
        microsoft.onAccessToken(token -> {
            issued.add(token);
            noaImap.setPassword(token);
            noaSmtp.setPassword(token);
        });
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        data = MemoData.open(store);
        data.mail().secrets().useKeyFile(dir.resolve("mail.key"));
        data.grants().useClock(clock);
        data.user("noa", "en", ZoneId.of("Asia/Jerusalem"), NOW);
        OAuthClient client =
                new OAuthClient(OAuthProvider.MICROSOFT, microsoft.issuer(), "memo-public", Optional.empty());
        Grant grant = AuthorizationServer.discover(client, clock)
                .signInWithBrowser(OAuthProvider.MICROSOFT.mailScopes(), Browser::open, Duration.ofSeconds(30));
        data.mail()
                .addSignedIn(
                        "noa",
                        "127.0.0.1",
                        imap.getImap().getPort(),
                        "127.0.0.1",
                        smtp.getSmtp().getPort(),
                        MailAccounts.Security.NONE,
                        client,
                        grant,
                        NOW);
        tools = new MemoTools(data, new Reminders(data, clock::instant), new MailOperations(data)).registry();
    }

    @AfterEach
    void close() {
        store.close();
        imap.stop();
        smtp.stop();
        microsoft.close();
    }

    private JsonNode call(String args) {
        return tools.call(
                MemoTools.MAIL,
                (ObjectNode) Json.parse(args, "args"),
                ToolContext.detached(
                        "run-" + runs.incrementAndGet(), Optional.of("noa"), "A", TimeSource.of(clock::instant)));
    }

    private void deliver(String subject) throws Exception {
        MimeMessage message = new MimeMessage(Session.getInstance(new Properties()));
        message.setFrom(new InternetAddress("boss@contoso.example"));
        message.setRecipients(Message.RecipientType.TO, "noa@contoso.example");
        message.setSubject(subject, "UTF-8");
        message.setText("Please look at it today.", "UTF-8");
        message.setSentDate(Date.from(NOW));
        message.saveChanges();
        imap.getManagers().getImapHostManager().getInbox(noaImap).appendMessage(message, new Flags(), Date.from(NOW));
    }

    @Test
    void anImapServerThatRefusesAStillGoodTokenIsLoggedInOnceMoreWithARefreshedOne() throws Exception {
        deliver("Budget review");
        // Ended early at the provider: the server takes it no more, though it expires in an hour.
        noaImap.setPassword("ended early");

        JsonNode found = call("{\"operation\": \"search\", \"query\": \"budget\"}");

        assertThat(found.path("emails")).hasSize(1);
        assertThat(microsoft.refreshes()).isEqualTo(1);
        assertThat(issued).hasSize(2);
    }

    @Test
    void anSmtpServerThatRefusesAStillGoodTokenIsLoggedInOnceMoreAndTheMailGoesOnce() throws Exception {
        noaSmtp.setPassword("ended early");

        call("{\"operation\": \"send\", \"to\": \"omer@example.com\", \"subject\": \"Lunch\", \"body\": \"At one?\"}");

        assertThat(microsoft.refreshes()).isEqualTo(1);
        assertThat(smtp.getManagers().getImapHostManager().getInbox(omer).getMessages())
                .singleElement()
                .satisfies(m -> assertThat(m.getMimeMessage().getSubject()).isEqualTo("Lunch"));
    }

    @Test
    void aServerThatRefusesTheRefreshedTokenTooIsAFailedLoginRefreshedOnlyOnce() {
        microsoft.onAccessToken(token -> noaImap.setPassword("never the token"));
        noaImap.setPassword("ended early");

        assertThatThrownBy(() -> call("{\"operation\": \"search\", \"query\": \"budget\"}"))
                .isInstanceOf(WeftException.class)
                .hasMessageContaining("refused the login")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_MAIL_UNAVAILABLE);
        assertThat(microsoft.refreshes()).isEqualTo(1);
    }

    @Test
    void aPasswordAccountThatIsRefusedIsNotRetried() {
        data.mail()
                .add(
                        "noa",
                        "noa@contoso.example",
                        "127.0.0.1",
                        imap.getImap().getPort(),
                        "127.0.0.1",
                        smtp.getSmtp().getPort(),
                        "noa@contoso.example",
                        MailAccounts.Security.NONE,
                        MailAccounts.Auth.PASSWORD,
                        "a wrong password",
                        NOW);

        assertThatThrownBy(() -> call("{\"operation\": \"search\", \"query\": \"budget\"}"))
                .isInstanceOf(WeftException.class)
                .hasMessageContaining("refused the login");
        assertThat(microsoft.refreshes()).isZero();
    }
}
