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
import dev.weft.memo.data.OAuthGrants;
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
 * A mailbox signed in with OAuth (Microsoft 365's way: a public client, IMAP and SMTP with SASL
 * XOAUTH2) against GreenMail, whose XOAUTH2 login accepts only the access token the fake authorization
 * server issued last: reading and sending after the first token expired, a server that refuses a token
 * the clock still calls good (logged in once more with a refreshed one), and a revoked grant. IMAP and
 * SMTP are two GreenMail servers, so that one can refuse a token while the other takes it.
 */
final class SignedInMailTest {
    private static final Instant NOW = Instant.parse("2026-11-28T08:00:00Z");
    private static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(NOW);
    private final List<String> issued = new CopyOnWriteArrayList<>();
    private final AtomicInteger runs = new AtomicInteger();
    private FakeAuthorizationServer microsoft;
    private GreenMail imap;
    private GreenMail smtp;
    private GreenMailUser noa;
    private GreenMailUser noaSmtp;
    private GreenMailUser omer;
    private RunStore store;
    private MemoData data;
    private ToolRegistry tools;
    private Grant grant;

    @BeforeEach
    void open() {
        microsoft = FakeAuthorizationServer.start("memo-public", Optional.empty(), "noa@contoso.example", clock);
        microsoft.accessTokenLifetime(Duration.ofSeconds(2));
        imap = new GreenMail(ServerSetup.dynamicPort(new ServerSetup[] {ServerSetupTest.IMAP}));
        imap.getUserManager().setAuthRequired(true);
        imap.start();
        smtp = new GreenMail(ServerSetup.dynamicPort(new ServerSetup[] {ServerSetupTest.SMTP}));
        smtp.getUserManager().setAuthRequired(true);
        smtp.start();
        noa = imap.setUser("noa@contoso.example", "noa@contoso.example", "no token yet");
        noaSmtp = smtp.setUser("noa@contoso.example", "noa@contoso.example", "no token yet");
        omer = smtp.setUser("omer@example.com", "omer@example.com", "omer-pw");
        // Only the access token issued last opens the mailbox, as a provider admits only live tokens.
        microsoft.onAccessToken(token -> {
            issued.add(token);
            noa.setPassword(token);
            noaSmtp.setPassword(token);
        });
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        data = MemoData.open(store);
        data.mail().secrets().useKeyFile(dir.resolve("mail.key"));
        data.grants().useClock(clock);
        // Tokens here live two seconds: refreshed a second before, rather than the minute before of real ones.
        data.grants().useMargin(Duration.ofSeconds(1));
        data.user("noa", "en", JERUSALEM, NOW);
        OAuthClient client =
                new OAuthClient(OAuthProvider.MICROSOFT, microsoft.issuer(), "memo-public", Optional.empty());
        grant = AuthorizationServer.discover(client, clock)
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
        imap.getManagers().getImapHostManager().getInbox(noa).appendMessage(message, new Flags(), Date.from(NOW));
    }

    @Test
    void readsAndSendsWithXoauth2AfterTheFirstAccessTokenExpired() throws Exception {
        deliver("Budget review");
        assertThat(call("{\"operation\": \"search\", \"query\": \"budget\"}").path("emails"))
                .hasSize(1);

        clock.advance(Duration.ofSeconds(3));

        assertThat(call("{\"operation\": \"search\", \"query\": \"budget\"}").path("emails"))
                .hasSize(1);
        call("{\"operation\": \"send\", \"to\": \"omer@example.com\", \"subject\": \"Lunch\", \"body\": \"At one?\"}");

        assertThat(microsoft.refreshes()).isEqualTo(1);
        assertThat(issued).hasSize(2).first().isEqualTo(grant.accessToken());
        assertThat(smtp.getManagers().getImapHostManager().getInbox(omer).getMessages())
                .singleElement()
                .satisfies(m -> assertThat(m.getMimeMessage().getSubject()).isEqualTo("Lunch"));
    }

    @Test
    void aTokenThatIsStillGoodIsUsedAsItIsWithoutAskingForAnother() throws Exception {
        deliver("Budget review");

        call("{\"operation\": \"search\", \"query\": \"budget\"}");
        call("{\"operation\": \"search\", \"query\": \"review\"}");

        assertThat(microsoft.refreshes()).isZero();
    }

    @Test
    void aRevokedSignInIsAuthRevokedNamesTheCommandAndTellsTheUserOnce() {
        microsoft.revokeEverything();
        clock.advance(Duration.ofSeconds(3));

        for (int attempt = 0; attempt < 2; attempt++) {
            assertThatThrownBy(() -> call("{\"operation\": \"search\", \"query\": \"budget\"}"))
                    .isInstanceOf(WeftException.class)
                    .hasMessageContaining("weft memo mail connect --user noa --microsoft")
                    .extracting(e -> ((WeftException) e).code())
                    .isEqualTo(ErrorCode.E_AUTH_REVOKED);
        }

        assertThat(data.notifications().pending("noa"))
                .filteredOn(n -> n.type().equals(OAuthGrants.REVOKED))
                .singleElement()
                .satisfies(n -> assertThat(n.text()).contains("mailbox", "noa@contoso.example"));
        assertThat(data.grants()
                        .find("noa", OAuthGrants.Purpose.MAIL)
                        .orElseThrow()
                        .revokedAt())
                .contains(clock.instant());
    }

    @Test
    void theNoticeOfARevokedSignInIsInTheUsersLanguage() {
        data.updateUser(new dev.weft.memo.data.User("noa", "he", JERUSALEM, NOW));
        microsoft.revokeEverything();
        clock.advance(Duration.ofSeconds(3));

        assertThatThrownBy(() -> call("{\"operation\": \"search\", \"query\": \"budget\"}"))
                .isInstanceOf(WeftException.class);

        assertThat(data.notifications().pending("noa"))
                .filteredOn(n -> n.type().equals(OAuthGrants.REVOKED))
                .singleElement()
                .satisfies(n -> assertThat(n.text())
                        .contains("לתיבת הדואר", "בוטלה", "weft memo mail connect --user noa --microsoft"));
    }

    @Test
    void addingAPasswordAccountForgetsTheSignInAndARefusedPasswordIsNotRetried() {
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
                        "a password",
                        NOW);

        assertThat(data.grants().find("noa", OAuthGrants.Purpose.MAIL)).isEmpty();
        assertThatThrownBy(() -> call("{\"operation\": \"search\", \"query\": \"budget\"}"))
                .as("a refused password is the server's answer: no token is asked for")
                .hasMessageContaining("refused the login");
        assertThat(microsoft.refreshes()).isZero();
    }

    @Test
    void anImapServerThatRefusesAStillGoodTokenIsLoggedInOnceMoreWithARefreshedOne() throws Exception {
        deliver("Budget review");
        // Ended early at the provider: the server takes it no more, though the clock calls it good.
        noa.setPassword("ended early");

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
        microsoft.onAccessToken(token -> noa.setPassword("never the token"));
        noa.setPassword("ended early");

        assertThatThrownBy(() -> call("{\"operation\": \"search\", \"query\": \"budget\"}"))
                .isInstanceOf(WeftException.class)
                .hasMessageContaining("refused the login")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_MAIL_UNAVAILABLE);
        assertThat(microsoft.refreshes()).isEqualTo(1);
    }
}
