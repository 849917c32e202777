package dev.weft.channels;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Telegram through the Bot API ({@code <api>/bot<token>/getUpdates}, {@code …/sendMessage}), by long
 * polling: each text message of a private chat or group is kept in the store's inbox before the update
 * offset (kept in the store too) moves past it, handled from there by an {@link InboxWorker}, and
 * answered once through the outbox. The API's base URL is configurable so a self-hosted Bot API server (or a
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
    /** The bot's id (the token's part before the colon): whose update offset the store keeps. */
    private final String account;

    private final InboxWorker inbox;
    private final Thread poller;
    private volatile boolean stopped;

    private TelegramChannel(
            URI api, String token, Conversations conversations, Duration pollTimeout, Duration retention) {
        String root = api.toString().endsWith("/") ? api.toString() : api + "/";
        this.base = root + "bot" + token + "/";
        this.account = token.contains(":") ? token.substring(0, token.indexOf(':')) : token;
        this.conversations = conversations;
        this.pollTimeout = pollTimeout;
        this.inbox =
                InboxWorker.builder(conversations, this).retention(retention).build();
        this.poller = Thread.ofVirtual().name("weft-telegram").unstarted(this::poll);
    }

    /**
     * A channel to the bot {@code token} names, through the Bot API at {@code api}, keeping finished
     * inbox and outbox rows for {@link InboxWorker#DEFAULT_RETENTION}.
     *
     * @throws WeftException {@code E_BAD_INPUT} for an empty token
     */
    public static TelegramChannel create(URI api, String token, Conversations conversations, Duration pollTimeout) {
        return create(api, token, conversations, pollTimeout, InboxWorker.DEFAULT_RETENTION);
    }

    /**
     * A channel to the bot {@code token} names, through the Bot API at {@code api}, keeping finished
     * inbox and outbox rows for {@code retention}.
     *
     * @throws WeftException {@code E_BAD_INPUT} for an empty token
     */
    public static TelegramChannel create(
            URI api, String token, Conversations conversations, Duration pollTimeout, Duration retention) {
        Objects.requireNonNull(api, "api");
        Objects.requireNonNull(conversations, "conversations");
        Objects.requireNonNull(retention, "retention");
        if (token == null || token.isBlank() || token.chars().anyMatch(c -> c <= ' ' || c == '/')) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "a Telegram bot token is required (from @BotFather)");
        }
        return new TelegramChannel(api, token.strip(), conversations, pollTimeout, retention);
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

    /**
     * Starts polling for messages on a thread of its own, and handling them from the inbox on another:
     * messages and replies a dead process left are handled first.
     */
    public void start() {
        inbox.start();
        poller.start();
    }

    private void poll() {
        Duration backoff = Duration.ofSeconds(1);
        while (!stopped) {
            try {
                pollOnce();
                backoff = Duration.ofSeconds(1);
            } catch (RuntimeException e) {
                // The API or the store failed: nothing was kept past the offset, so the poll is repeated.
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

    /**
     * One long poll: waits for updates (at most the poll timeout) past the offset kept in the store,
     * keeps each text message in the inbox and, in the same transaction, moves the offset past them;
     * only then does the next poll tell Telegram (by its offset) that they may be forgotten.
     */
    void pollOnce() {
        long offset = conversations.store().cursor(NAME, account);
        URI uri = URI.create(base + "getUpdates?timeout=" + pollTimeout.toSeconds() + "&offset=" + offset
                + "&allowed_updates=%5B%22message%22%5D");
        JsonNode answer = http.send(
                HttpRequest.newBuilder(uri)
                        .timeout(pollTimeout.plusSeconds(15))
                        .GET()
                        .build(),
                "get updates");
        long next = offset;
        List<Conversations.Inbound> messages = new ArrayList<>();
        for (JsonNode update : answer.path("result")) {
            next = Math.max(next, update.path("update_id").asLong() + 1);
            JsonNode message = update.path("message");
            if (!message.path("text").isTextual() || !message.path("chat").has("id")) {
                continue;
            }
            String chatId = message.path("chat").path("id").asText();
            JsonNode from = message.path("from");
            String name = from.path("first_name").asText(from.path("username").asText("someone"));
            messages.add(new Conversations.Inbound(
                    NAME,
                    chatId,
                    chatId + ":" + message.path("message_id").asText(),
                    message.path("text").asText(),
                    name));
        }
        if (next > offset) {
            conversations
                    .store()
                    .keepAndAdvance(
                            NAME, account, messages, next, conversations.clock().instant());
            inbox.wake();
        }
    }

    /** The worker that handles this channel's kept messages and sends their replies. */
    public InboxWorker inbox() {
        return inbox;
    }

    @Override
    public void outboxChanged() {
        inbox.wake();
    }

    @Override
    public void send(String chatId, String text) {
        for (int start = 0; start < text.length(); start += MAX_TEXT) {
            ObjectNode body = Json.object();
            body.put("chat_id", chatId);
            body.put("text", text.substring(start, Math.min(text.length(), start + MAX_TEXT)));
            try {
                http.send(
                        ChannelHttp.postJson(URI.create(base + "sendMessage"), body, Map.of(), Duration.ofSeconds(20)),
                        "send a message to chat " + chatId);
            } catch (ChannelUnavailableException e) {
                // A long text goes as several messages: once one of them arrived, sending all again doubles it.
                throw start == 0
                        ? e
                        : new ChannelUnavailableException(e.getMessage() + " (after part of it was sent)", true);
            }
        }
    }

    /** Stops polling; the messages being answered are answered first. */
    @Override
    public void close() {
        stopped = true;
        poller.interrupt();
        inbox.close();
    }
}
