package dev.weft.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.assistant.Assistants;
import dev.weft.core.Json;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.Memo;
import dev.weft.memo.MemoAssistant;
import dev.weft.store.Stores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A server on an ephemeral port over SQLite in a temporary directory, with API keys for dana, omer
 * and an admin, and a real HTTP client to call it.
 */
final class ServerFixture implements AutoCloseable {
    final RunStore store;
    final WeftServer server;
    final URI base;
    final String dana;
    final String omer;
    final String admin;
    final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** A JSON answer: its status and body. */
    record Answer(int status, JsonNode body, HttpResponse<String> raw) {
        String code() {
            return body.path("error").path("code").asText();
        }
    }

    ServerFixture(Path dir) {
        this(dir, builder -> {});
    }

    /** A server configured further by {@code configure}. */
    ServerFixture(Path dir, java.util.function.Consumer<WeftServer.Builder> configure) {
        this(dir, (builder, store) -> configure.accept(builder));
    }

    /** A server configured further by {@code configure}, which is given the store (to open Memo on it). */
    ServerFixture(Path dir, java.util.function.BiConsumer<WeftServer.Builder, RunStore> configure) {
        store = Stores.open("sqlite:" + dir.resolve("weft.db"));
        // Memo alone, unless the test serves others: the server itself names no assistant.
        WeftServer.Builder builder = WeftServer.builder().assistants(memo(Memo.open(store)));
        configure.accept(builder, store);
        server = builder.store(store)
                .port(0)
                .reminders(false)
                .recoveryInterval(Duration.ZERO)
                .webhookInterval(Duration.ofMillis(50))
                .webhookBackoff(Duration.ofMillis(10))
                .start();
        base = server.uri();
        ApiKeys keys = ApiKeys.open(store);
        dana = keys.create("dana", false, Instant.now()).secret();
        omer = keys.create("omer", false, Instant.now()).secret();
        admin = keys.create("root", true, Instant.now()).secret();
    }

    /** {@code memo} as the server's one assistant. */
    static Assistants memo(Memo memo) {
        return Assistants.of(new MemoAssistant(memo));
    }

    Answer get(String path, Optional<String> key) {
        return send(request(path, key).GET().build());
    }

    Answer get(String path, String key) {
        return get(path, Optional.of(key));
    }

    Answer post(String path, String key, String json) {
        return post(path, Optional.of(key), json);
    }

    Answer delete(String path, String key) {
        return send(request(path, Optional.of(key)).DELETE().build());
    }

    Answer post(String path, Optional<String> key, String json) {
        return send(request(path, key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    HttpRequest.Builder request(String path, Optional<String> key) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30));
        key.ifPresent(k -> builder.header("Authorization", "Bearer " + k));
        return builder;
    }

    /** The answer as text, for what is not one JSON value (a stream). */
    HttpResponse<String> raw(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    Answer send(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode body = response.body().isEmpty() ? Json.object() : Json.parse(response.body(), "answer");
            return new Answer(response.statusCode(), body, response);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Sends {@code message} to Memo as the owner of {@code key}; the reply must be a 200. */
    JsonNode ask(String key, String message) {
        Answer answer = post("api/memo/messages", key, Json.write(Json.object().put("message", message)));
        if (answer.status() != 200) {
            throw new AssertionError("memo answered " + answer.status() + ": " + answer.body());
        }
        return answer.body();
    }

    @Override
    public void close() {
        server.close();
        store.close();
    }
}
