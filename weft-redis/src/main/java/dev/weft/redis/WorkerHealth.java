package dev.weft.redis;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.weft.core.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A worker's health over HTTP: {@code /healthz} (200 while it runs), {@code /readyz} (200 when Redis
 * and the store answer, else 503 with the reason) and {@code /status}; each answers with what the
 * worker is doing and the queue's depth, as JSON. On the JDK's own HTTP server. Thread-safe.
 */
public final class WorkerHealth implements AutoCloseable {
    private final HttpServer server;
    private final String host;

    private WorkerHealth(HttpServer server, String host) {
        this.server = server;
        this.host = host;
    }

    /**
     * Listens on {@code host:port} (0 picks a free port) for {@code worker}.
     *
     * @throws UncheckedIOException if the address cannot be listened on
     */
    public static WorkerHealth start(Worker worker, String host, int port) {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
        server.createContext(
                "/healthz",
                exchange -> answer(
                        exchange,
                        worker,
                        worker.status().running() ? Optional.empty() : Optional.of("the worker has stopped")));
        server.createContext("/readyz", exchange -> answer(exchange, worker, worker.unready()));
        server.createContext("/status", exchange -> answer(exchange, worker, Optional.empty()));
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        return new WorkerHealth(server, host);
    }

    /** Where it listens, e.g. {@code http://127.0.0.1:8081/}. */
    public URI uri() {
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":"
                + server.getAddress().getPort() + "/");
    }

    private static void answer(HttpExchange exchange, Worker worker, Optional<String> problem) throws IOException {
        Worker.WorkerStatus status = worker.status();
        ObjectNode body = Json.object();
        body.put("status", problem.isEmpty() ? "ok" : "unavailable");
        problem.ifPresent(p -> body.put("reason", p));
        body.put("consumer", status.consumer());
        body.put("redis", status.redisUp() ? "up" : "down");
        body.put("concurrency", status.concurrency());
        body.put("inHand", status.inHand());
        body.put("done", status.done());
        body.put("failed", status.failed());
        body.put("deadLettered", status.deadLettered());
        body.put("claimed", status.claimed());
        ObjectNode queue = body.putObject("queue");
        queue.put("waiting", status.queueWaiting());
        queue.put("inProgress", status.queueInProgress());
        byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(problem.isEmpty() ? 200 : 503, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
