package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.CalDavSync;
import dev.weft.memo.data.Event;
import dev.weft.memo.data.OAuthGrants;
import dev.weft.oauth.AuthorizationServer;
import dev.weft.oauth.Browser;
import dev.weft.oauth.DevicePrompt;
import dev.weft.oauth.FakeAuthorizationServer;
import dev.weft.oauth.Grant;
import dev.weft.oauth.ManualClock;
import dev.weft.oauth.OAuthClient;
import dev.weft.oauth.OAuthProvider;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A calendar signed in with OAuth and kept in sync: a fake Google authorization server at the wire
 * issuing access tokens that live two seconds (by the test's clock), and Debian's Radicale behind a
 * proxy that admits only a token the fake server still honours. Connecting by either sign-in, syncing
 * after the first token expired, and a revoked grant.
 */
final class SignedInCalendarIT {
    private static final Instant NOW = Instant.parse("2026-11-28T08:00:00Z");
    private static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");

    @TempDir
    static Path serverDir;

    private static Radicale radicale;
    private static int calendars;

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(NOW);
    private FakeAuthorizationServer google;
    private BearerProxy caldav;
    private RunStore store;
    private Memo memo;
    private OAuthClient client;
    private AuthorizationServer server;
    private String name;

    @BeforeAll
    static void startServer() {
        radicale = Radicale.start(serverDir, Map.of("dana", "dana-pw"));
    }

    @AfterAll
    static void stopServer() {
        radicale.close();
    }

    @BeforeEach
    void open() {
        google = FakeAuthorizationServer.start(
                "memo-desktop", Optional.of("desktop-secret"), "dana@gmail.example", clock);
        google.accessTokenLifetime(Duration.ofSeconds(2));
        caldav = BearerProxy.start(radicale.url(), "dana", "dana-pw", google::admits);
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        memo = Memo.open(store, clock::instant);
        memo.data().calendars().secrets().useKeyFile(dir.resolve("mail.key"));
        memo.data().grants().useClock(clock);
        client = new OAuthClient(OAuthProvider.GOOGLE, google.issuer(), "memo-desktop", Optional.of("desktop-secret"));
        server = AuthorizationServer.discover(client, clock);
        name = "oauth" + (++calendars);
        radicale.makeCalendar("dana", name);
    }

    @AfterEach
    void close() {
        store.close();
        caldav.close();
        google.close();
    }

    private CalDavSync.Connected connect(Grant grant) {
        return memo.data()
                .caldav()
                .connectSignedIn("dana", caldav.url().toString(), client, grant, Optional.of(name), JERUSALEM, NOW);
    }

    private Grant signInWithBrowser() {
        return server.signInWithBrowser(OAuthProvider.GOOGLE.calendarScopes(), Browser::open, Duration.ofSeconds(30));
    }

    private static String event(String uid, String summary) {
        return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\nBEGIN:VEVENT\r\nUID:" + uid
                + "\r\nDTSTAMP:20261128T080000Z\r\nDTSTART:20261130T070000Z\r\nDTEND:20261130T073000Z\r\nSUMMARY:"
                + summary + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    }

    @Test
    void syncsAfterTheFirstAccessTokenExpiredWithARefreshedOne() {
        Grant grant = signInWithBrowser();
        CalDavSync.Connected connected = connect(grant);
        radicale.put("dana", name, "standup.ics", event("standup-1", "Standup"));

        clock.advance(Duration.ofSeconds(3));
        CalDavSync.Report report = memo.calendar().sync("dana");

        assertThat(connected.account().login()).isEqualTo("dana@gmail.example");
        assertThat(google.admits(grant.accessToken())).isFalse();
        assertThat(report.pulled()).isEqualTo(1);
        assertThat(memo.data().events().all("dana")).extracting(Event::summary).containsExactly("Standup");
        assertThat(google.refreshes()).isEqualTo(1);
        assertThat(memo.data()
                        .grants()
                        .find("dana", OAuthGrants.Purpose.CALENDAR)
                        .orElseThrow()
                        .expiresAt())
                .isEqualTo(clock.instant().plusSeconds(2));
    }

    @Test
    void aServerThatRefusesATokenTheClockCallsGoodIsTriedOnceMoreWithANewOne() {
        google.accessTokenLifetime(Duration.ofHours(1));
        connect(signInWithBrowser());
        radicale.put("dana", name, "retro.ics", event("retro-1", "Retro"));
        google.endAccessTokens();

        CalDavSync.Report report = memo.calendar().sync("dana");

        assertThat(report.pulled()).isEqualTo(1);
        assertThat(google.refreshes()).isEqualTo(1);
        assertThat(caldav.refused()).isEqualTo(1);
    }

    @Test
    void keepsAndRefreshesTheGrantOnPostgreSqlToo() {
        store.close();
        store = Stores.open(dev.weft.store.EmbeddedPostgres.shared().freshUrl());
        memo = Memo.open(store, clock::instant);
        memo.data().calendars().secrets().useKeyFile(dir.resolve("mail.key"));
        memo.data().grants().useClock(clock);
        connect(signInWithBrowser());
        radicale.put("dana", name, "pg.ics", event("pg-1", "Planning"));

        clock.advance(Duration.ofSeconds(3));

        assertThat(memo.calendar().sync("dana").pulled()).isEqualTo(1);
        assertThat(google.refreshes()).isEqualTo(1);
        assertThat(memo.data()
                        .grants()
                        .find("dana", OAuthGrants.Purpose.CALENDAR)
                        .orElseThrow()
                        .account())
                .isEqualTo("dana@gmail.example");
    }

    @Test
    void connectsWithADeviceCodeApprovedOnAnotherDevice() {
        AtomicReference<DevicePrompt> shown = new AtomicReference<>();
        Grant grant = server.signInWithDeviceCode(OAuthProvider.GOOGLE.calendarScopes(), shown::set, pause -> {
            clock.advance(pause);
            google.approve(shown.get().userCode());
        });

        connect(grant);
        radicale.put("dana", name, "lunch.ics", event("lunch-1", "Lunch with Omer"));
        clock.advance(Duration.ofMinutes(5));

        assertThat(memo.calendar().sync("dana").pulled()).isEqualTo(1);
        assertThat(caldav.refused()).isZero();
    }

    @Test
    void aRevokedSignInIsAuthRevokedAndTheUserIsToldOnceHowToConnectAgain() {
        connect(signInWithBrowser());
        google.revokeEverything();
        clock.advance(Duration.ofSeconds(3));

        for (int attempt = 0; attempt < 2; attempt++) {
            assertThatThrownBy(() -> memo.calendar().sync("dana"))
                    .isInstanceOf(WeftException.class)
                    .hasMessageContaining("weft memo calendar connect --user dana --google")
                    .extracting(e -> ((WeftException) e).code())
                    .isEqualTo(ErrorCode.E_AUTH_REVOKED);
        }

        assertThat(memo.data().notifications().pending("dana"))
                .filteredOn(n -> n.type().equals(OAuthGrants.REVOKED))
                .singleElement()
                .satisfies(n -> assertThat(n.text())
                        .contains("dana@gmail.example", "weft memo calendar connect --user dana --google"));
        assertThat(memo.data().calendars().require("dana").lastError())
                .hasValueSatisfying(error -> assertThat(error).startsWith("E_AUTH_REVOKED"));
        assertThat(caldav.refused()).isZero();
    }

    @Test
    void keepsTheTokensEncryptedAndDisconnectingRevokesTheGrantAtTheProvider() throws SQLException {
        Grant grant = signInWithBrowser();
        connect(grant);

        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("memo.db"));
                ResultSet row = c.createStatement()
                        .executeQuery("SELECT refresh_token, access_token, client_secret FROM memo_oauth_grants")) {
            assertThat(row.next()).isTrue();
            assertThat(row.getString(1)).doesNotContain(grant.refreshToken());
            assertThat(row.getString(2)).doesNotContain(grant.accessToken());
            assertThat(row.getString(3)).doesNotContain("desktop-secret");
        }

        memo.data().caldav().disconnect("dana");

        assertThat(google.revoked()).containsExactly(grant.refreshToken());
        assertThat(memo.data().grants().find("dana", OAuthGrants.Purpose.CALENDAR))
                .isEmpty();
    }
}
