package dev.weft.mailflow.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.OutcomeUnknownException;
import dev.weft.core.TransientException;
import dev.weft.core.WeftException;
import dev.weft.mailflow.Venue;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;

/**
 * A venue's Outlook mailbox over Microsoft Graph: a reply is sent as the MIME text Weft made ({@code
 * POST <graph>/users/<address>/sendMail}, {@code text/plain}, base64), so it keeps the Message-ID it
 * was given, and is looked for by that Message-ID in Sent Items ({@code GET
 * <graph>/users/<address>/mailFolders/sentitems/messages?$filter=internetMessageId eq '…'}). Thread-safe.
 */
public final class GraphMailer {
    private final HttpClient http;
    private final Duration timeout;

    public GraphMailer(HttpClient http, Duration timeout) {
        this.http = Objects.requireNonNull(http, "http");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /** With a client of its own that waits 10 s to connect and {@code timeout} for each answer. */
    public static GraphMailer create(Duration timeout) {
        return new GraphMailer(
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build(), timeout);
    }

    /**
     * Sends {@code mime} from the venue's Graph mailbox ({@code address}) with {@code token}.
     *
     * @throws OutcomeUnknownException {@code E_OUTCOME_UNKNOWN} when Graph was sent the request and its
     *     answer never came (or was a gateway's timeout): the mail may have gone
     * @throws WeftException {@code E_MAIL_UNAVAILABLE} when Graph refused it (a token it does not take,
     *     a request it rejects) or could not be reached: nothing went out; transient when trying again
     *     may do (unreachable, throttled, unavailable)
     */
    public void send(Venue.GraphMailbox graph, String address, String token, String mime) {
        String url = base(graph) + "/users/" + encode(address) + "/sendMail";
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .timeout(timeout)
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(
                        Base64.getEncoder().encodeToString(mime.getBytes(StandardCharsets.UTF_8))))
                .build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (HttpConnectTimeoutException | ConnectException e) {
            throw new TransientException(
                    ErrorCode.E_MAIL_UNAVAILABLE, "cannot reach Graph at " + url + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new OutcomeUnknownException(
                    "the reply may have been sent: Graph at " + url + " was sent it and did not answer ("
                            + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                            + ")",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OutcomeUnknownException("the reply may have been sent: interrupted waiting for Graph", e);
        }
        int status = response.statusCode();
        if (status == 202 || status == 200) {
            return;
        }
        String said = "Graph answered " + status + " to sendMail for " + address + ": " + brief(response.body());
        switch (status) {
            case 401, 403 ->
                throw new WeftException(
                        ErrorCode.E_MAIL_UNAVAILABLE,
                        said + " (the venue's token is refused: connect the mailbox again)");
            case 502, 504 -> throw new OutcomeUnknownException("the reply may have been sent: " + said);
            case 429, 500, 503 -> throw new TransientException(ErrorCode.E_MAIL_UNAVAILABLE, said);
            default -> throw new WeftException(ErrorCode.E_MAIL_UNAVAILABLE, said);
        }
    }

    /**
     * Whether a message with {@code messageId} is in the Sent Items of the venue's Graph mailbox.
     *
     * @throws WeftException {@code E_MAIL_UNAVAILABLE} when Graph cannot be asked (transient when it cannot be reached)
     */
    public boolean inSent(Venue.GraphMailbox graph, String address, String token, String messageId) {
        String filter = "internetMessageId eq '" + messageId.replace("'", "''") + "'";
        String url = base(graph) + "/users/" + encode(address) + "/mailFolders/sentitems/messages?$filter="
                + encode(filter) + "&$select=id";
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .timeout(timeout)
                .header("Authorization", "Bearer " + token)
                .GET()
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new WeftException(
                        ErrorCode.E_MAIL_UNAVAILABLE,
                        "Graph answered " + response.statusCode() + " when asked for sent message " + messageId + ": "
                                + brief(response.body()));
            }
            JsonNode found = Json.parse(response.body(), "Graph's list of sent messages");
            return found.path("value").isArray() && !found.path("value").isEmpty();
        } catch (IOException e) {
            throw new TransientException(
                    ErrorCode.E_MAIL_UNAVAILABLE, "cannot reach Graph at " + url + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WeftException(ErrorCode.E_CANCELLED, "interrupted while asking Graph for " + messageId);
        }
    }

    private static String base(Venue.GraphMailbox graph) {
        return graph.baseUrl().replaceAll("/+$", "");
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String brief(String body) {
        String text = body == null ? "" : body.strip();
        return text.length() > 300 ? text.substring(0, 300) + "…" : text;
    }
}
