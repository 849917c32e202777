package dev.weft.mailflow;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.Runner;
import dev.weft.core.TransientException;
import dev.weft.core.WeftException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Seed 003's webhooks, apart from any HTTP server: {@code /webhook/imap} (a raw RFC 822 message, or
 * JSON carrying one), {@code /webhook/outlook} (Microsoft Graph change notifications: the validation
 * handshake, {@code clientState} checked, each message fetched from Graph as MIME) and {@code
 * /process} (a normalized email). Every call names its venue and proves it knows the venue's webhook
 * secret (an HMAC-SHA256 of the body, or Graph's {@code clientState}), compared in constant time; one
 * that does not is {@code E_UNAUTHORIZED} and starts nothing. Thread-safe.
 */
public final class MailflowWebhooks {
    /** The header carrying {@code sha256=<hex HMAC-SHA256 of the body under the venue's webhook secret>}. */
    public static final String SIGNATURE_HEADER = "X-Weft-Signature";

    private final Mailflow mailflow;
    private final HttpClient http;

    public MailflowWebhooks(Mailflow mailflow) {
        this.mailflow = Objects.requireNonNull(mailflow, "mailflow");
        this.http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    /**
     * {@code POST /webhook/imap}: the body is the raw message, or JSON {@code {"raw": TEXT}} or {@code
     * {"rawBase64": BASE64}}.
     *
     * @throws WeftException {@code E_UNAUTHORIZED} for a missing or wrong signature, {@code E_NOT_FOUND}
     *     for an unknown venue, {@code E_EMAIL_INVALID} for a body that is no email
     */
    public Processed imap(
            Runner runner, String venueId, Optional<String> contentType, byte[] body, Optional<String> signature) {
        authenticate(venueId, body, signature);
        byte[] raw = body;
        if (contentType.orElse("").toLowerCase(java.util.Locale.ROOT).contains("json")) {
            JsonNode json = Json.parse(new String(body, StandardCharsets.UTF_8), "the webhook body");
            if (json.path("raw").isTextual()) {
                raw = json.path("raw").asText().getBytes(StandardCharsets.UTF_8);
            } else if (json.path("rawBase64").isTextual()) {
                try {
                    raw = Base64.getMimeDecoder().decode(json.path("rawBase64").asText());
                } catch (IllegalArgumentException e) {
                    throw Email.invalid("'rawBase64' is not base64: " + e.getMessage());
                }
            } else {
                throw Email.invalid("a JSON webhook body carries the message as \"raw\" (text) or \"rawBase64\"");
            }
        }
        return mailflow.deliver(
                runner, new Mailflow.Delivery(venueId, new Mailflow.Source.Raw(raw), "imap", Optional.empty(), false));
    }

    /**
     * {@code POST /process}: a normalized email as JSON ({@link Email#fromJson}), for a manual run.
     *
     * @throws WeftException as {@link #imap}
     */
    public Processed process(Runner runner, String venueId, byte[] body, Optional<String> signature, boolean dryRun) {
        authenticate(venueId, body, signature);
        JsonNode json = Json.parse(new String(body, StandardCharsets.UTF_8), "the request body");
        return mailflow.deliver(
                runner,
                new Mailflow.Delivery(
                        venueId, new Mailflow.Source.Normalized(json), "process", Optional.empty(), dryRun));
    }

    /** What {@code POST /webhook/outlook} answers: the validation token echoed, or the notifications taken in. */
    public sealed interface OutlookResult {
        /** Graph's subscription handshake: answer 200 with this token as {@code text/plain}. */
        record Validation(String token) implements OutlookResult {}

        /** The notifications taken in (answer 202). */
        record Accepted(List<Processed> processed) implements OutlookResult {}
    }

    /**
     * {@code POST /webhook/outlook}: with {@code validationToken} (Graph creating the subscription),
     * the token to echo; else Graph's change notifications {@code {"value": [{"clientState",
     * "resource", "changeType", …}]}}, each message fetched from the venue's Graph mailbox ({@code GET
     * <graph>/<resource>/$value}) and taken in.
     *
     * @throws WeftException {@code E_UNAUTHORIZED} when a notification's {@code clientState} is not the
     *     venue's webhook secret (nothing is fetched or started); {@code E_MAIL_NOT_CONFIGURED} for a venue
     *     without a Graph mailbox; {@code E_MAIL_UNAVAILABLE} when Graph fails; {@code E_AUTH_REVOKED} when
     *     the venue's Microsoft 365 sign-in was revoked
     */
    public OutlookResult outlook(Runner runner, String venueId, Optional<String> validationToken, byte[] body) {
        Venue venue = mailflow.data().venue(venueId);
        if (validationToken.isPresent()) {
            return new OutlookResult.Validation(validationToken.get());
        }
        JsonNode json = Json.parse(new String(body, StandardCharsets.UTF_8), "the notification");
        JsonNode notifications = json.path("value");
        if (!notifications.isArray()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "a Graph notification is {\"value\": [ … ]}");
        }
        byte[] secret = mailflow.webhookSecret(venueId).getBytes(StandardCharsets.UTF_8);
        for (JsonNode notification : notifications) {
            byte[] state = notification.path("clientState").asText("").getBytes(StandardCharsets.UTF_8);
            if (!MessageDigest.isEqual(secret, state)) {
                throw new WeftException(
                        ErrorCode.E_UNAUTHORIZED,
                        "a notification's clientState is not the webhook secret of venue '" + venueId + "'");
            }
        }
        Venue.GraphMailbox graph = venue.graph()
                .orElseThrow(() -> new WeftException(
                        ErrorCode.E_MAIL_NOT_CONFIGURED,
                        "venue '" + venueId + "' has no Graph mailbox: add it with 'weft mailflow venue add --id "
                                + venueId + " … --graph URL' (the token in WEFT_GRAPH_TOKEN)"));
        // The venue's Microsoft 365 sign-in when it has one (refreshed, or E_AUTH_REVOKED), else the pasted token.
        String token = mailflow.graphTokens().accessToken(venue);
        List<Processed> processed = new ArrayList<>();
        for (JsonNode notification : notifications) {
            if (!notification.path("changeType").asText("created").contains("created")) {
                continue;
            }
            String resource = notification.path("resource").asText("");
            if (resource.isBlank() || resource.contains("..")) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT, "a notification without a message resource: " + notification);
            }
            byte[] mime = fetch(graph.baseUrl() + "/" + resource.replaceAll("^/+", "") + "/$value", token);
            processed.add(mailflow.deliver(
                    runner,
                    new Mailflow.Delivery(venueId, new Mailflow.Source.Raw(mime), "outlook", Optional.empty(), false)));
        }
        return new OutlookResult.Accepted(processed);
    }

    private byte[] fetch(String url, String token) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .GET()
                .build();
        try {
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() == 401 || response.statusCode() == 403) {
                throw new WeftException(
                        ErrorCode.E_MAIL_UNAVAILABLE,
                        "Graph refused the venue's token (" + response.statusCode()
                                + "): add a new one with --graph and WEFT_GRAPH_TOKEN");
            }
            if (response.statusCode() == 404) {
                throw new NotFoundException("Graph has no message at " + url);
            }
            if (response.statusCode() >= 400) {
                throw new TransientException(
                        ErrorCode.E_MAIL_UNAVAILABLE, "Graph answered " + response.statusCode() + " for " + url);
            }
            return response.body();
        } catch (IOException e) {
            throw new TransientException(
                    ErrorCode.E_MAIL_UNAVAILABLE, "cannot reach Graph at " + url + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WeftException(ErrorCode.E_CANCELLED, "interrupted while fetching a message from Graph");
        }
    }

    /**
     * @throws NotFoundException for an unknown venue
     * @throws WeftException {@code E_UNAUTHORIZED} for a missing or wrong signature
     */
    private void authenticate(String venueId, byte[] body, Optional<String> signature) {
        mailflow.data().venue(venueId);
        if (signature.isEmpty() || signature.get().isBlank()) {
            throw new WeftException(
                    ErrorCode.E_UNAUTHORIZED,
                    "the request is not signed: send " + SIGNATURE_HEADER
                            + ": sha256=<HMAC-SHA256 of the body under the venue's" + " webhook secret>");
        }
        if (!mailflow.signed(venueId, body, signature.get())) {
            throw new WeftException(
                    ErrorCode.E_UNAUTHORIZED,
                    "the signature does not match the body under the webhook secret of venue '" + venueId + "'");
        }
    }
}
