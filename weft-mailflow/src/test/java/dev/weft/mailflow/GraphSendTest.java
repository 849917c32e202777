package dev.weft.mailflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An Outlook venue (a Graph mailbox, no SMTP server) replies through Microsoft Graph — a local HTTP
 * server speaking Graph's {@code sendMail} and Sent Items at the wire — or its run fails with a clear
 * code. On main before issue #35 its reply was {@code sent: false} and the run COMPLETED.
 */
final class GraphSendTest {
    private static final Pattern MESSAGE_ID = Pattern.compile("(?im)^Message-ID:\\s*(\\S+)");

    /** What the fake Graph does with a {@code sendMail}. */
    private enum Answer {
        ACCEPT,
        REFUSE_TOKEN,
        TAKE_AND_DROP,
        DROP
    }

    @TempDir
    Path dir;

    private HttpServer graph;
    private volatile Answer answer = Answer.ACCEPT;
    /** The MIME text of each {@code sendMail} Graph took. */
    private final List<String> sent = new CopyOnWriteArrayList<>();

    private final List<String> tokens = new CopyOnWriteArrayList<>();
    private RunStore store;
    private Runner runner;
    private Mailflow mailflow;

    @BeforeEach
    void open() throws IOException {
        graph = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        graph.createContext("/v1.0/users/events@olivegrove.example/sendMail", this::sendMail);
        graph.createContext("/v1.0/users/events@olivegrove.example/mailFolders/sentitems/messages", this::sentItems);
        graph.start();
        store = Fixtures.sqlite(dir);
        runner = Fixtures.runner(store);
        mailflow =
                Mailflow.builder().store(store).keyFile(dir.resolve("mail.key")).build();
        Mailflow.VenueSettings olive = Fixtures.oliveGrove("olive", Optional.of("olive-org"));
        mailflow.addVenue(new Mailflow.VenueSettings(
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
                Optional.of(new Mailflow.GraphSettings(
                        "http://127.0.0.1:" + graph.getAddress().getPort() + "/v1.0", "graph-token-1")),
                Optional.empty()));
    }

    @AfterEach
    void close() {
        store.close();
        graph.stop(0);
    }

    private void sendMail(HttpExchange exchange) throws IOException {
        tokens.add(exchange.getRequestHeaders().getFirst("Authorization"));
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.US_ASCII);
        String mime = new String(Base64.getDecoder().decode(body.strip()), StandardCharsets.UTF_8);
        switch (answer) {
            case ACCEPT -> {
                sent.add(mime);
                exchange.sendResponseHeaders(202, -1);
            }
            case REFUSE_TOKEN -> {
                byte[] error = "{\"error\": {\"code\": \"InvalidAuthenticationToken\", \"message\": \"expired\"}}"
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(401, error.length);
                exchange.getResponseBody().write(error);
            }
            // Graph took it, and the answer was lost on the way back.
            case TAKE_AND_DROP -> sent.add(mime);
            case DROP -> {}
        }
        exchange.close();
    }

    private void sentItems(HttpExchange exchange) throws IOException {
        String filter = exchange.getRequestURI().getQuery();
        StringBuilder value = new StringBuilder();
        for (String mime : sent) {
            Matcher id = MESSAGE_ID.matcher(mime);
            if (id.find() && filter.contains("internetMessageId eq '" + id.group(1) + "'")) {
                value.append(value.isEmpty() ? "" : ",")
                        .append("{\"id\": \"AAMk")
                        .append(sent.indexOf(mime))
                        .append("\"}");
            }
        }
        byte[] json = ("{\"value\": [" + value + "]}").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, json.length);
        exchange.getResponseBody().write(json);
        exchange.close();
    }

    private JsonNode process() {
        return mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-en-plain.eml"))
                .toJson();
    }

    @Test
    void anOutlookVenuesReplyGoesOutThroughGraphsSendMailAsItsOwnMime() {
        JsonNode out = process();

        assertThat(out.path("status").asText()).as(out.toString()).isEqualTo("COMPLETED");
        assertThat(out.path("sent").asBoolean()).isTrue();
        assertThat(sent).hasSize(1);
        assertThat(tokens).containsExactly("Bearer graph-token-1");
        assertThat(sent.get(0))
                .contains("To: dana.cohen@example.com")
                .contains("In-Reply-To: <CAF7x1=inquiry-en-plain@mail.example.com>")
                .contains("Message-ID: <mailflow.");
    }

    @Test
    void aTokenGraphRefusesFailsTheRunWithACodeNeverACompletedRunThatSentNothing() {
        answer = Answer.REFUSE_TOKEN;

        JsonNode out = process();

        assertThat(out.path("status").asText()).isEqualTo("FAILED");
        assertThat(out.path("sent").asBoolean()).isFalse();
        assertThat(out.path("error").path("code").asText()).isEqualTo("E_MAIL_UNAVAILABLE");
        assertThat(out.path("error").path("message").asText()).contains("401");
    }

    @Test
    void aSendMailWhoseAnswerWasLostIsFoundInSentItemsByItsMessageIdAndNotSentAgain() {
        answer = Answer.TAKE_AND_DROP;

        JsonNode out = process();

        assertThat(out.path("status").asText()).as(out.toString()).isEqualTo("COMPLETED");
        assertThat(out.path("sent").asBoolean()).isTrue();
        assertThat(sent).hasSize(1);
    }

    @Test
    void aSendMailWhoseAnswerWasLostAndIsNotInSentItemsWaitsForAPerson() {
        answer = Answer.DROP;

        JsonNode out = process();

        assertThat(out.path("status").asText()).as(out.toString()).isEqualTo("WAITING");
        assertThat(out.path("code").asText()).isEqualTo("E_OUTCOME_UNKNOWN");
        assertThat(tokens).as("one sendMail, not retried on its own").hasSize(1);
    }

    @Test
    void aTokenSourcePluggedInIsTheOneGraphIsCalledWith() {
        Mailflow signedIn = Mailflow.builder()
                .store(store)
                .keyFile(dir.resolve("mail.key"))
                .graphTokens(venue -> "fresh-token-for-" + venue.id())
                .build();

        signedIn.deliver(runner, Fixtures.raw("olive", "inquiry-en-plain.eml"));

        assertThat(tokens).containsExactly("Bearer fresh-token-for-olive");
    }
}
