package dev.weft.mailflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.oauth.AuthorizationServer;
import dev.weft.oauth.FakeAuthorizationServer;
import dev.weft.oauth.Grant;
import dev.weft.oauth.ManualClock;
import dev.weft.oauth.OAuthClient;
import dev.weft.oauth.OAuthProvider;
import dev.weft.store.SecretKeySource;
import dev.weft.store.SecretRotation;
import dev.weft.store.spi.SealedColumns;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An Outlook venue signed in to Microsoft 365 (a fake authorization server at the wire, driven through the
 * device-code flow) replies through Graph (a fake that takes only the access tokens that server issued and
 * has not ended) with a token refreshed before it is used when the first has expired, and a revoked grant
 * fails the reply with {@code E_AUTH_REVOKED}: never a completed run that sent nothing.
 */
final class VenueSignInTest {
    private static final String VENUE = "olive";

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Fixtures.NOW);
    private FakeAuthorizationServer microsoft;
    private HttpServer graph;
    /** The bearer token of every {@code sendMail} Graph was called with. */
    private final List<String> graphTokens = new CopyOnWriteArrayList<>();
    /** The bearer tokens of the {@code sendMail}s Graph took. */
    private final List<String> taken = new CopyOnWriteArrayList<>();

    private RunStore store;
    private Runner runner;
    private Mailflow mailflow;
    private OAuthClient client;

    @BeforeEach
    void open() throws IOException {
        microsoft = FakeAuthorizationServer.start("weft-venues", Optional.empty(), "events@olivegrove.example", clock);
        microsoft.accessTokenLifetime(Duration.ofMinutes(10));
        client = new OAuthClient(OAuthProvider.MICROSOFT, microsoft.issuer(), "weft-venues", Optional.empty());
        graph = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        graph.createContext("/v1.0/users/events@olivegrove.example/sendMail", this::sendMail);
        graph.createContext("/v1.0/users/events@olivegrove.example/messages/AAMk1/$value", this::message);
        graph.start();
        store = Fixtures.sqlite(dir);
        runner = Fixtures.runner(store);
        mailflow = Mailflow.builder()
                .store(store)
                .keyFile(dir.resolve("mail.key"))
                .clock(clock)
                .build();
        mailflow.addVenue(outlookVenue("http://127.0.0.1:" + graph.getAddress().getPort() + "/v1.0"));
    }

    @AfterEach
    void close() {
        store.close();
        graph.stop(0);
        microsoft.close();
    }

    private static Mailflow.VenueSettings outlookVenue(String graphUrl) {
        Mailflow.VenueSettings olive = Fixtures.oliveGrove(VENUE, Optional.of("olive-org"));
        return new Mailflow.VenueSettings(
                olive.id(),
                olive.organization(),
                olive.name(),
                olive.address(),
                olive.zone(),
                olive.language(),
                Optional.of(Venue.SendMode.AUTO),
                olive.rooms(),
                olive.bookings(),
                Optional.empty(),
                // The token pasted when the venue was added: a signed-in venue must not be sent with it.
                Optional.of(new Mailflow.GraphSettings(graphUrl, "pasted-token")),
                Optional.empty());
    }

    private void sendMail(HttpExchange exchange) throws IOException {
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        String token = authorization == null ? "" : authorization.replaceFirst("^Bearer ", "");
        graphTokens.add(token);
        exchange.getRequestBody().readAllBytes();
        if (microsoft.admits(token)) {
            taken.add(token);
            exchange.sendResponseHeaders(202, -1);
        } else {
            byte[] error =
                    "{\"error\": {\"code\": \"InvalidAuthenticationToken\", \"message\": \"Lifetime validation failed\"}}"
                            .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(401, error.length);
            exchange.getResponseBody().write(error);
        }
        exchange.close();
    }

    /** An inquiry in the venue's Outlook mailbox, as MIME, to a token the authorization server still admits. */
    private void message(HttpExchange exchange) throws IOException {
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        String token = authorization == null ? "" : authorization.replaceFirst("^Bearer ", "");
        graphTokens.add(token);
        if (microsoft.admits(token)) {
            byte[] mime = Fixtures.email("inquiry-en-plain.eml");
            exchange.sendResponseHeaders(200, mime.length);
            exchange.getResponseBody().write(mime);
        } else {
            exchange.sendResponseHeaders(401, -1);
        }
        exchange.close();
    }

    /** What {@code weft mailflow venue connect olive --microsoft --device} does, the user approving on their phone. */
    private Grant connectWithDeviceCode() {
        List<String> issued = new ArrayList<>();
        microsoft.onAccessToken(issued::add);
        Grant grant = AuthorizationServer.discover(client, clock)
                .signInWithDeviceCode(
                        VenueGrants.GRAPH_SCOPES, shown -> microsoft.approve(shown.userCode()), clock::advance);
        mailflow.venueGrants().keep(VENUE, client, grant);
        assertThat(issued).containsExactly(grant.accessToken());
        return grant;
    }

    private JsonNode reply() {
        return mailflow.deliver(runner, Fixtures.raw(VENUE, "inquiry-en-plain.eml"))
                .toJson();
    }

    @Test
    void aVenueConnectedByDeviceCodeRepliesThroughGraphWithItsSignedInTokenNotThePastedOne() {
        Grant grant = connectWithDeviceCode();

        JsonNode out = reply();

        assertThat(out.path("status").asText()).as(out.toString()).isEqualTo("COMPLETED");
        assertThat(out.path("sent").asBoolean()).isTrue();
        assertThat(taken).containsExactly(grant.accessToken());
        assertThat(microsoft.refreshes())
                .as("a token with time left is not refreshed")
                .isZero();
        assertThat(mailflow.venueGrants().find(VENUE).orElseThrow().scope())
                .contains("https://graph.microsoft.com/Mail.Send", "https://graph.microsoft.com/Mail.Read");
    }

    @Test
    void aReplyAfterTheFirstAccessTokenExpiredGoesOutWithOneRefreshedBeforeGraphIsCalled() {
        Grant first = connectWithDeviceCode();
        clock.advance(Duration.ofMinutes(30));
        assertThat(microsoft.admits(first.accessToken()))
                .as("the first token has expired")
                .isFalse();

        JsonNode out = reply();

        assertThat(out.path("status").asText()).as(out.toString()).isEqualTo("COMPLETED");
        assertThat(out.path("sent").asBoolean()).isTrue();
        assertThat(microsoft.refreshes()).isEqualTo(1);
        assertThat(graphTokens).as("Graph never saw the expired token").doesNotContain(first.accessToken());
        assertThat(taken).hasSize(1);
        assertThat(mailflow.venueGrants().find(VENUE).orElseThrow().expiresAt())
                .as("the refreshed token is kept")
                .isAfter(clock.instant());
    }

    @Test
    void anOutlookNotificationAfterTheTokenExpiredIsFetchedAndAnsweredWithRefreshedTokens() {
        Grant first = connectWithDeviceCode();
        clock.advance(Duration.ofMinutes(30));
        String notification = "{\"value\": [{\"clientState\": \"" + mailflow.webhookSecret(VENUE)
                + "\", \"changeType\": \"created\", \"resource\": \"users/events@olivegrove.example/messages/AAMk1\"}]}";

        MailflowWebhooks.OutlookResult result = new MailflowWebhooks(mailflow)
                .outlook(runner, VENUE, Optional.empty(), notification.getBytes(StandardCharsets.UTF_8));

        assertThat(result).isInstanceOf(MailflowWebhooks.OutlookResult.Accepted.class);
        JsonNode out = ((MailflowWebhooks.OutlookResult.Accepted) result)
                .processed()
                .get(0)
                .toJson();
        assertThat(out.path("status").asText()).as(out.toString()).isEqualTo("COMPLETED");
        assertThat(out.path("sent").asBoolean()).isTrue();
        assertThat(graphTokens).hasSize(2).doesNotContain(first.accessToken(), "pasted-token");
        assertThat(microsoft.refreshes())
                .as("one refresh serves the fetch and the reply")
                .isEqualTo(1);
    }

    @Test
    void aRevokedGrantFailsTheReplyWithAuthRevokedAndSendsNothing() {
        connectWithDeviceCode();
        microsoft.revokeEverything();
        clock.advance(Duration.ofMinutes(30));

        JsonNode out = reply();

        assertThat(out.path("status").asText()).as(out.toString()).isEqualTo("FAILED");
        assertThat(out.path("sent").asBoolean()).isFalse();
        assertThat(out.path("error").path("code").asText()).isEqualTo("E_AUTH_REVOKED");
        assertThat(out.path("error").path("message").asText())
                .contains("weft mailflow venue connect olive --microsoft");
        assertThat(graphTokens).isEmpty();
        assertThat(mailflow.venueGrants().find(VENUE).orElseThrow().revokedAt()).contains(clock.instant());
    }

    @Test
    void theGrantsTokensAreSealedAtRestAndCoveredByKeyRotation() {
        Grant grant = connectWithDeviceCode();

        List<String> stored = mailflow.data().database().read("read the raw grant", c -> {
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT refresh_token, access_token FROM mailflow_venue_grants WHERE venue_id = ?")) {
                select.setString(1, VENUE);
                try (ResultSet row = select.executeQuery()) {
                    assertThat(row.next()).isTrue();
                    return List.of(row.getString(1), row.getString(2));
                }
            }
        });

        assertThat(stored).doesNotContain(grant.refreshToken(), grant.accessToken());
        assertThat(mailflow.secrets().decrypt(stored.get(0))).isEqualTo(grant.refreshToken());
    }

    @Test
    void aKeyRotationResealsTheGrantAndTheVenueRepliesWithItUnderTheNewKey() {
        Grant grant = connectWithDeviceCode();

        SecretRotation.Report report = SecretRotation.rotate(
                store,
                new SecretKeySource.HomeFile(dir.resolve("mail.key")),
                new SecretKeySource.HomeFile(dir.resolve("rotated.key")),
                SealedColumns.all(getClass().getClassLoader()));
        mailflow = Mailflow.builder()
                .store(store)
                .keyFile(dir.resolve("rotated.key"))
                .clock(clock)
                .build();
        JsonNode out = reply();

        assertThat(report.resealed())
                .containsEntry("mailflow_venue_grants.refresh_token", 1)
                .containsEntry("mailflow_venue_grants.access_token", 1);
        assertThat(out.path("status").asText()).as(out.toString()).isEqualTo("COMPLETED");
        assertThat(taken).containsExactly(grant.accessToken());
    }

    @Test
    void aVenueWithoutAGraphMailboxCannotBeConnectedAndNothingIsKept() {
        Mailflow.VenueSettings olive = Fixtures.oliveGrove("harbor", Optional.of("olive-org"));
        mailflow.addVenue(olive);
        Grant grant = AuthorizationServer.discover(client, clock)
                .signInWithDeviceCode(
                        VenueGrants.GRAPH_SCOPES, shown -> microsoft.approve(shown.userCode()), clock::advance);

        assertThatThrownBy(() -> mailflow.venueGrants().keep("harbor", client, grant))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code().name()).isEqualTo("E_MAIL_NOT_CONFIGURED"));
        assertThat(mailflow.venueGrants().find("harbor")).isEmpty();
    }
}
