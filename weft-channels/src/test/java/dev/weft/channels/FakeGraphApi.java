package dev.weft.channels;

import com.fasterxml.jackson.databind.JsonNode;
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
 * The Graph API's {@code POST /<phone number id>/messages} at the wire, on a loopback port: it checks
 * the bearer token and the body's shape as the Cloud API does, and keeps each message for the test.
 * Thread-safe.
 */
public final class FakeGraphApi implements AutoCloseable {
    public static final String TOKEN = "EAAG-test-token";
    public static final String PHONE_NUMBER_ID = "1098765432";

    /** A message sent through the API. */
    public record Sent(String to, String text) {}

    private final HttpServer server;
    private final List<Sent> sent = new ArrayList<>();

    public FakeGraphApi() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/v21.0/", this::handle);
        server.start();
    }

    /** The base URL to give as {@code WEFT_WHATSAPP_GRAPH_URL}. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v21.0");
    }

    public synchronized List<Sent> sent() {
        return List.copyOf(sent);
    }

    /** Waits up to {@code timeout} for a sent message that {@code matches}. */
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
        if (!("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            reply(exchange, 401, "{\"error\":{\"message\":\"Invalid OAuth access token.\",\"code\":190}}");
            return;
        }
        if (!exchange.getRequestURI().getPath().equals("/v21.0/" + PHONE_NUMBER_ID + "/messages")
                || !exchange.getRequestMethod().equals("POST")) {
            reply(exchange, 404, "{\"error\":{\"message\":\"Unknown path\",\"code\":100}}");
            return;
        }
        JsonNode body =
                Json.parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), "body");
        if (!body.path("messaging_product").asText().equals("whatsapp")
                || !body.path("type").asText().equals("text")
                || !body.path("to").isTextual()) {
            reply(exchange, 400, "{\"error\":{\"message\":\"Invalid parameter\",\"code\":100}}");
            return;
        }
        synchronized (this) {
            sent.add(new Sent(
                    body.path("to").asText(), body.path("text").path("body").asText()));
            notifyAll();
        }
        reply(
                exchange,
                200,
                "{\"messaging_product\":\"whatsapp\",\"contacts\":[{\"input\":\""
                        + body.path("to").asText() + "\",\"wa_id\":\""
                        + body.path("to").asText() + "\"}],\"messages\":[{\"id\":\"wamid.x\"}]}");
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
