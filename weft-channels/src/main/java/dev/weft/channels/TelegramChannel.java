package dev.weft.channels;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Telegram through the Bot API ({@code <api>/bot<token>/getUpdates}, {@code …/sendMessage}), by long
 * polling: each text message of a private chat or group goes to {@link Conversations}, and the reply is
 * sent back to its chat. The API's base URL is configurable so a self-hosted Bot API server (or a
 * test's) can stand in for {@code https://api.telegram.org}. Thread-safe.
 */
public final class TelegramChannel implements ChannelSender, AutoCloseable {
    public static final String NAME = "telegram";
    public static final URI DEFAULT_API = URI.create("https://api.telegram.org");
    /** The longest text one Telegram message holds. */
    static final int MAX_TEXT = 4096;

    private static final System.Logger LOG = System.getLogger(TelegramChannel.class.getName());

    private final String base;
    private final Conversations conversations;
    private final Duration pollTimeout;
    private final ChannelHttp http = new ChannelHttp(NAME);
    private final ChatQueues queues = new ChatQueues();
    private final Thread poller;
    private volatile boolean stopped;
    private long offset;

    private TelegramChannel(URI api, String token, Conversations conversations, Duration pollTimeout) {
        String root = api.toString().endsWith("/") ? api.toString() : api + "/";
        this.base = root + "bot" + token + "/";
        this.conversations = conversations;
        this.pollTimeout = pollTimeout;
        this.poller = Thread.ofVirtual().name("weft-telegram").unstarted(this::poll);
    }

    /**
     * A channel to the bot {@code token} names, through the Bot API at {@code api}.
     *
     * @throws WeftException {@code E_BAD_INPUT} for an empty token
     */
    public static TelegramChannel create(URI api, String token, Conversations conversations, Duration pollTimeout) {
        Objects.requireNonNull(api, "api");
        Objects.requireNonNull(conversations, "conversations");
        if (token == null || token.isBlank() || token.chars().anyMatch(c -> c <= ' ' || c == '/')) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "a Telegram bot token is required (from @BotFather)");
        }
        return new TelegramChannel(api, token.strip(), conversations, pollTimeout);
    }

    @Override
    public String channel() {
        return NAME;
    }

    /**
     * Who the bot is ({@code getMe}): the way to find out before polling that the token and the API work.
     *
     * @throws WeftException {@code E_CHANNEL_UNAVAILABLE} when the API refuses the token or cannot be reached
     */
    public JsonNode me() {
        JsonNode answer = http.send(
                HttpRequest.newBuilder(URI.create(base + "getMe"))
                        .timeout(Duration.ofSeconds(20))
                        .GET()
                        .build(),
                "reach the Bot API (getMe)");
        return answer.path("result");
    }

    /** Starts polling for messages on a thread of its own. */
    public void start() {
        poller.start();
    }

    private void poll() {
        Duration backoff = Duration.ofSeconds(1);
        while (!stopped) {
            try {
                pollOnce();
                backoff = Duration.ofSeconds(1);
            } catch (WeftException e) {
                if (stopped) {
                    return;
                }
                LOG.log(
                        System.Logger.Level.WARNING,
                        e.getMessage() + "; trying again in " + backoff.toSeconds() + " s");
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException interrupted) {
                    return;
                }
                backoff = backoff.multipliedBy(2).compareTo(Duration.ofSeconds(30)) > 0
                        ? Duration.ofSeconds(30)
                        : backoff.multipliedBy(2);
            }
        }
    }

    /** One long poll: waits for updates (at most the poll timeout) and hands each text message over. */
    void pollOnce() {
        URI uri = URI.create(base + "getUpdates?timeout=" + pollTimeout.toSeconds() + "&offset=" + offset
                + "&allowed_updates=%5B%22message%22%5D");
        JsonNode answer = http.send(
                HttpRequest.newBuilder(uri)
                        .timeout(pollTimeout.plusSeconds(15))
                        .GET()
                        .build(),
                "get updates");
        for (JsonNode update : answer.path("result")) {
            offset = Math.max(offset, update.path("update_id").asLong() + 1);
            JsonNode message = update.path("message");
            if (!message.path("text").isTextual() || !message.path("chat").has("id")) {
                continue;
            }
            String chatId = message.path("chat").path("id").asText();
            JsonNode from = message.path("from");
            String name = from.path("first_name").asText(from.path("username").asText("someone"));
            Conversations.Inbound inbound = new Conversations.Inbound(
                    NAME,
                    chatId,
                    chatId + ":" + message.path("message_id").asText(),
                    message.path("text").asText(),
                    name);
            queues.submit(chatId, () -> conversations.receive(inbound).ifPresent(reply -> send(chatId, reply)));
        }
    }

    @Override
    public void send(String chatId, String text) {
        for (int start = 0; start < text.length(); start += MAX_TEXT) {
            ObjectNode body = Json.object();
            body.put("chat_id", chatId);
            body.put("text", text.substring(start, Math.min(text.length(), start + MAX_TEXT)));
            http.send(
                    ChannelHttp.postJson(URI.create(base + "sendMessage"), body, Map.of(), Duration.ofSeconds(20)),
                    "send a message to chat " + chatId);
        }
    }

    /** Stops polling; the messages being answered are answered first. */
    @Override
    public void close() {
        stopped = true;
        poller.interrupt();
        queues.close();
    }
}
