package dev.weft.channels;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.weft.core.Json;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.function.Predicate;

/**
 * Telegram's Bot API at the wire, on a loopback port: {@code getMe}, {@code getUpdates} (long polling
 * over the messages a test {@link #say}s) and {@code sendMessage} (kept for the test to read). A wrong
 * token gets 401, as the real API answers. Thread-safe.
 */
public final class FakeBotApi implements AutoCloseable {
    public static final String TOKEN = "123456:TEST-token";

    /** A message the bot sent, and when it arrived ({@link System#nanoTime()}). */
    public record Sent(String chatId, String text, long nanos) {}

    private final HttpServer server;
    private final List<ObjectNode> updates = new ArrayList<>();
    private final List<Sent> sent = new ArrayList<>();
    private long nextUpdate = 1;
    private long nextMessage = 100;

    public FakeBotApi() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** A text message from {@code chatId}, as the next update. */
    public synchronized void say(long chatId, String firstName, String text) {
        sayAs(chatId, nextMessage++, firstName, text);
    }

    /** The same message delivered again (the same message id, a new update). */
    public synchronized void sayAs(long chatId, long messageId, String firstName, String text) {
        ObjectNode update = Json.object();
        update.put("update_id", nextUpdate++);
        ObjectNode message = update.putObject("message");
        message.put("message_id", messageId);
        message.putObject("chat").put("id", chatId).put("type", "private");
        message.putObject("from").put("id", chatId).put("is_bot", false).put("first_name", firstName);
        message.put("date", 1_700_000_000);
        message.put("text", text);
        updates.add(update);
        notifyAll();
    }

    public synchronized List<Sent> sent() {
        return List.copyOf(sent);
    }

    /** Waits up to {@code timeout} for a sent message that {@code matches}; the first such, or fails. */
    public synchronized Sent await(Predicate<Sent> matches, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            for (Sent message : sent) {
                if (matches.test(message)) {
                    return message;
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("no such message was sent within " + timeout + "; sent: " + sent);
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String prefix = "/bot" + TOKEN + "/";
        if (!path.startsWith(prefix)) {
            reply(exchange, 401, "{\"ok\":false,\"error_code\":401,\"description\":\"Unauthorized\"}");
            return;
        }
        String method = path.substring(prefix.length());
        switch (method) {
            case "getMe" ->
                reply(exchange, 200, "{\"ok\":true,\"result\":{\"id\":1,\"is_bot\":true,\"username\":\"weft_bot\"}}");
            case "getUpdates" ->
                reply(exchange, 200, Json.write(updates(exchange.getRequestURI().getQuery())));
            case "sendMessage" -> {
                JsonNode body = Json.parse(
                        new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), "sendMessage");
                synchronized (this) {
                    sent.add(new Sent(
                            body.path("chat_id").asText(), body.path("text").asText(), System.nanoTime()));
                    notifyAll();
                }
                reply(exchange, 200, "{\"ok\":true,\"result\":{\"message_id\":1}}");
            }
            default -> reply(exchange, 404, "{\"ok\":false,\"error_code\":404,\"description\":\"Not Found\"}");
        }
    }

    private synchronized ObjectNode updates(String query) {
        long offset = 0;
        long timeout = 0;
        for (String pair : query == null ? new String[0] : query.split("&")) {
            String[] kv = pair.split("=", 2);
            if (kv[0].equals("offset")) {
                offset = Long.parseLong(kv[1]);
            } else if (kv[0].equals("timeout")) {
                timeout = Long.parseLong(kv[1]);
            }
        }
        long deadline =
                System.nanoTime() + Duration.ofSeconds(Math.min(timeout, 2)).toNanos();
        ObjectNode answer = Json.object();
        answer.put("ok", true);
        ArrayNode result = answer.putArray("result");
        while (true) {
            for (ObjectNode update : updates) {
                if (update.path("update_id").asLong() >= offset) {
                    result.add(update);
                }
            }
            long left = deadline - System.nanoTime();
            if (!result.isEmpty() || left <= 0) {
                return answer;
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return answer;
            }
        }
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
