package dev.weft.channels;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * WhatsApp through the Cloud API: the webhook Meta calls ({@code GET} to verify it with {@code
 * hub.challenge}, {@code POST} with messages, signed {@code X-Hub-Signature-256: sha256=<HMAC-SHA256 of
 * the body under the app secret>}) and the Graph API's {@code /<phone number id>/messages} to answer.
 * A body whose signature is missing or wrong is refused before anything is read from it; the signature
 * is compared in constant time. Messages are kept in the store's inbox before the webhook answers
 * {@code 200}, then handled from there by an {@link InboxWorker} and answered once through the outbox. Independent of any HTTP server: {@code weft serve} routes {@code
 * /channels/whatsapp} here. Thread-safe.
 */
public final class WhatsAppChannel implements ChannelSender, AutoCloseable {
    public static final String NAME = "whatsapp";
    public static final URI DEFAULT_GRAPH = URI.create("https://graph.facebook.com/v21.0");
    /** The longest text one WhatsApp message holds. */
    static final int MAX_TEXT = 4096;

    /**
     * What the channel needs, from {@code WEFT_WHATSAPP_VERIFY_TOKEN} (what Meta sends back when it
     * verifies the webhook), {@code WEFT_WHATSAPP_APP_SECRET} (the app secret the bodies are signed with),
     * {@code WEFT_WHATSAPP_TOKEN} (the Graph API access token), {@code WEFT_WHATSAPP_PHONE_NUMBER_ID}
     * (the business number that answers) and {@code WEFT_WHATSAPP_GRAPH_URL} (the Graph API's base URL,
     * {@code https://graph.facebook.com/v21.0} by default).
     */
    public record Settings(String verifyToken, String appSecret, String token, String phoneNumberId, URI graphUrl) {
        public static final List<String> VARIABLES = List.of(
                "WEFT_WHATSAPP_VERIFY_TOKEN",
                "WEFT_WHATSAPP_APP_SECRET",
                "WEFT_WHATSAPP_TOKEN",
                "WEFT_WHATSAPP_PHONE_NUMBER_ID");

        public Settings {
            Objects.requireNonNull(verifyToken, "verifyToken");
            Objects.requireNonNull(appSecret, "appSecret");
            Objects.requireNonNull(token, "token");
            Objects.requireNonNull(phoneNumberId, "phoneNumberId");
            Objects.requireNonNull(graphUrl, "graphUrl");
        }

        /**
         * The settings in {@code env}; empty when none of the four required variables is set.
         *
         * @throws WeftException {@code E_BAD_INPUT} naming the variables missing when only some are set,
         *     or a Graph URL that is not http(s)
         */
        public static Optional<Settings> fromEnvironment(Map<String, String> env) {
            List<String> missing = new ArrayList<>();
            for (String variable : VARIABLES) {
                if (env.getOrDefault(variable, "").isBlank()) {
                    missing.add(variable);
                }
            }
            if (missing.size() == VARIABLES.size()) {
                return Optional.empty();
            }
            if (!missing.isEmpty()) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT,
                        "WhatsApp is half configured: set " + String.join(", ", missing) + " as well");
            }
            String graph = env.getOrDefault("WEFT_WHATSAPP_GRAPH_URL", "");
            URI url;
            try {
                url = graph.isBlank() ? DEFAULT_GRAPH : new URI(graph.strip());
            } catch (java.net.URISyntaxException e) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "WEFT_WHATSAPP_GRAPH_URL is not a URL: " + graph);
            }
            if (url.getScheme() == null || !url.getScheme().startsWith("http") || url.getHost() == null) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT, "WEFT_WHATSAPP_GRAPH_URL must be an http(s) URL, was " + graph);
            }
            return Optional.of(new Settings(
                    env.get("WEFT_WHATSAPP_VERIFY_TOKEN").strip(),
                    env.get("WEFT_WHATSAPP_APP_SECRET").strip(),
                    env.get("WEFT_WHATSAPP_TOKEN").strip(),
                    env.get("WEFT_WHATSAPP_PHONE_NUMBER_ID").strip(),
                    url));
        }
    }

    /** What the webhook answers: a status and a body (the challenge, or why not). */
    public record Answer(int status, String body) {}

    private final Settings settings;
    private final Conversations conversations;
    private final ChannelHttp http = new ChannelHttp(NAME);
    private final InboxWorker inbox;

    private WhatsAppChannel(Settings settings, Conversations conversations, Duration retention) {
        this.settings = settings;
        this.conversations = conversations;
        this.inbox =
                InboxWorker.builder(conversations, this).retention(retention).build();
    }

    /** The channel, keeping finished inbox and outbox rows for {@link InboxWorker#DEFAULT_RETENTION}. */
    public static WhatsAppChannel create(Settings settings, Conversations conversations) {
        return create(settings, conversations, InboxWorker.DEFAULT_RETENTION);
    }

    /** The channel, keeping finished inbox and outbox rows for {@code retention}. */
    public static WhatsAppChannel create(Settings settings, Conversations conversations, Duration retention) {
        return new WhatsAppChannel(
                Objects.requireNonNull(settings, "settings"),
                Objects.requireNonNull(conversations, "conversations"),
                Objects.requireNonNull(retention, "retention"));
    }

    /**
     * Starts handling the messages the webhook keeps, on a thread of its own: messages and replies a
     * dead process left are handled first.
     */
    public WhatsAppChannel start() {
        inbox.start();
        return this;
    }

    /** The worker that handles this channel's kept messages and sends their replies. */
    public InboxWorker inbox() {
        return inbox;
    }

    @Override
    public String channel() {
        return NAME;
    }

    /**
     * Meta's verification of the webhook ({@code GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…}):
     * the challenge back when the token is the verify token, else {@code 403}.
     */
    public Answer verify(Optional<String> mode, Optional<String> token, Optional<String> challenge) {
        if (mode.filter("subscribe"::equals).isPresent()
                && token.filter(t -> equal(
                                t.getBytes(StandardCharsets.UTF_8),
                                settings.verifyToken().getBytes(StandardCharsets.UTF_8)))
                        .isPresent()
                && challenge.isPresent()) {
            return new Answer(200, challenge.get());
        }
        return new Answer(403, "the verify token does not match WEFT_WHATSAPP_VERIFY_TOKEN");
    }

    /**
     * A webhook delivery: {@code 401} when {@code signature} ({@code X-Hub-Signature-256}) is missing or
     * not the body's, {@code 400} when the body is not the Cloud API's JSON, {@code 503} when the store
     * cannot keep its messages (Meta delivers it again later), else {@code 200} once each text message
     * is kept in the inbox: nothing is acknowledged that a crash could lose.
     */
    public Answer receive(byte[] body, Optional<String> signature) {
        if (signature.isEmpty() || !signature.get().startsWith("sha256=")) {
            return new Answer(401, "X-Hub-Signature-256 is missing");
        }
        byte[] given;
        try {
            given = HexFormat.of()
                    .parseHex(signature.get().substring("sha256=".length()).strip());
        } catch (IllegalArgumentException e) {
            return new Answer(401, "X-Hub-Signature-256 is not hex");
        }
        if (!equal(given, hmac(body))) {
            return new Answer(401, "X-Hub-Signature-256 does not match the body");
        }
        JsonNode root;
        try {
            root = Json.parse(new String(body, StandardCharsets.UTF_8), "the webhook body");
        } catch (WeftException e) {
            return new Answer(400, e.getMessage());
        }
        List<Conversations.Inbound> messages = messages(root);
        try {
            if (conversations.store().keep(messages, conversations.clock().instant()) > 0) {
                inbox.wake();
            }
        } catch (RuntimeException e) {
            return new Answer(503, "cannot keep the messages now: " + e.getMessage());
        }
        return new Answer(200, "ok");
    }

    /** The text messages of a Cloud API webhook body. */
    static List<Conversations.Inbound> messages(JsonNode root) {
        List<Conversations.Inbound> found = new ArrayList<>();
        for (JsonNode entry : root.path("entry")) {
            for (JsonNode change : entry.path("changes")) {
                JsonNode value = change.path("value");
                Map<String, String> names = new java.util.HashMap<>();
                for (JsonNode contact : value.path("contacts")) {
                    names.put(
                            contact.path("wa_id").asText(),
                            contact.path("profile").path("name").asText(""));
                }
                for (JsonNode message : value.path("messages")) {
                    if (!message.path("type").asText().equals("text")
                            || !message.path("from").isTextual()) {
                        continue;
                    }
                    String from = message.path("from").asText();
                    found.add(new Conversations.Inbound(
                            NAME,
                            from,
                            message.path("id")
                                    .asText(from + ":"
                                            + message.path("timestamp").asText()),
                            message.path("text").path("body").asText(""),
                            names.getOrDefault(from, from)));
                }
            }
        }
        return found;
    }

    @Override
    public void outboxChanged() {
        inbox.wake();
    }

    @Override
    public void send(String chatId, String text) {
        String root = settings.graphUrl().toString();
        URI uri = URI.create((root.endsWith("/") ? root : root + "/") + settings.phoneNumberId() + "/messages");
        for (int start = 0; start < text.length(); start += MAX_TEXT) {
            ObjectNode body = Json.object();
            body.put("messaging_product", "whatsapp");
            body.put("recipient_type", "individual");
            body.put("to", chatId);
            body.put("type", "text");
            body.putObject("text").put("body", text.substring(start, Math.min(text.length(), start + MAX_TEXT)));
            try {
                http.send(
                        ChannelHttp.postJson(
                                uri,
                                body,
                                Map.of("Authorization", "Bearer " + settings.token()),
                                Duration.ofSeconds(20)),
                        "send a message to " + chatId);
            } catch (ChannelUnavailableException e) {
                // A long text goes as several messages: once one of them arrived, sending all again doubles it.
                throw start == 0
                        ? e
                        : new ChannelUnavailableException(e.getMessage() + " (after part of it was sent)", true);
            }
        }
    }

    /** HMAC-SHA256 of {@code body} under the app secret. */
    byte[] hmac(byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(settings.appSecret().getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java platform has HmacSHA256", e);
        }
    }

    /** Compares in time that does not depend on where the two differ. */
    private static boolean equal(byte[] a, byte[] b) {
        return MessageDigest.isEqual(a, b);
    }

    /** Lets the messages being answered finish. */
    @Override
    public void close() {
        inbox.close();
    }
}
