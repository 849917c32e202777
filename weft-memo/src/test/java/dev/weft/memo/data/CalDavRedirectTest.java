package dev.weft.memo.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The CalDAV client hands its login only to the server it was given: two real HTTP servers on
 * ephemeral ports, one redirecting to the other, each recording the {@code Authorization} header it
 * received.
 */
final class CalDavRedirectTest {
    private static final String MULTISTATUS = "<?xml version=\"1.0\" encoding=\"utf-8\"?><d:multistatus"
            + " xmlns:d=\"DAV:\"><d:response><d:href>/cal/</d:href><d:propstat><d:prop><d:displayname>Home"
            + "</d:displayname></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"
            + "</d:multistatus>";

    /** The Authorization header of every request a server saw, "-" for none. */
    private final List<String> seenByGiven = new CopyOnWriteArrayList<>();

    private final List<String> seenByOther = new CopyOnWriteArrayList<>();
    private HttpServer given;
    private HttpServer other;
    private boolean otherAsksForLogin;

    @BeforeEach
    void startServers() throws IOException {
        other = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        other.createContext("/", exchange -> {
            seenByOther.add(authorization(exchange));
            if (otherAsksForLogin) {
                answer(exchange, 401, "");
            } else {
                answer(exchange, 207, MULTISTATUS);
            }
        });
        other.start();
        given = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        given.createContext("/moved/", exchange -> {
            seenByGiven.add(authorization(exchange));
            exchange.getResponseHeaders().add("Location", otherUrl("/cal/").toString());
            answer(exchange, 301, "");
        });
        given.createContext("/old/", exchange -> {
            seenByGiven.add(authorization(exchange));
            exchange.getResponseHeaders().add("Location", "/cal/");
            answer(exchange, 308, "");
        });
        given.createContext("/cal/", exchange -> {
            seenByGiven.add(authorization(exchange));
            answer(exchange, 207, MULTISTATUS);
        });
        given.start();
    }

    @AfterEach
    void stopServers() {
        given.stop(0);
        other.stop(0);
    }

    @Test
    void redirectToAnotherHostIsFollowedWithoutTheLogin() {
        CalDavClient client = client(CalendarAccounts.Auth.PASSWORD, "s3cret");

        CalDavClient.Multistatus answer = client.propfind(givenUrl("/moved/"), 0, "<d:displayname/>");

        assertThat(answer.responses()).hasSize(1);
        assertThat(seenByGiven).singleElement().asString().startsWith("Basic ");
        assertThat(seenByOther).containsExactly("-");
    }

    @Test
    void bearerTokenIsNotSentAcrossHostsEither() {
        CalDavClient client = client(CalendarAccounts.Auth.OAUTH2, "ya29.token");

        client.propfind(givenUrl("/moved/"), 0, "<d:displayname/>");

        assertThat(seenByGiven).containsExactly("Bearer ya29.token");
        assertThat(seenByOther).containsExactly("-");
    }

    @Test
    void redirectWithinTheSameServerKeepsTheLogin() {
        CalDavClient client = client(CalendarAccounts.Auth.PASSWORD, "s3cret");

        client.propfind(givenUrl("/old/"), 0, "<d:displayname/>");

        assertThat(seenByGiven).hasSize(2).allSatisfy(seen -> assertThat(seen).startsWith("Basic "));
        assertThat(seenByOther).isEmpty();
    }

    @Test
    void anotherHostAskingForTheLoginGetsAClearRefusalNotTheCredentials() {
        otherAsksForLogin = true;
        CalDavClient client = client(CalendarAccounts.Auth.PASSWORD, "s3cret");

        assertThatThrownBy(() -> client.propfind(givenUrl("/moved/"), 0, "<d:displayname/>"))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_CALENDAR_LOGIN_FAILED))
                .hasMessageContaining("redirected PROPFIND")
                .hasMessageContaining("only to the server it was connected to");
        assertThat(seenByOther).containsExactly("-");
    }

    private CalDavClient client(CalendarAccounts.Auth auth, String secret) {
        HttpClient http = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        return new CalDavClient(http, "dana", auth, secret);
    }

    /** The given server by name; the other by address, so the two differ in host as well as port. */
    private URI givenUrl(String path) {
        return URI.create("http://localhost:" + given.getAddress().getPort() + path);
    }

    private URI otherUrl(String path) {
        return URI.create("http://127.0.0.1:" + other.getAddress().getPort() + path);
    }

    private static String authorization(HttpExchange exchange) {
        return Optional.ofNullable(exchange.getRequestHeaders().getFirst("Authorization"))
                .orElse("-");
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        exchange.getRequestBody().readAllBytes();
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }
}
