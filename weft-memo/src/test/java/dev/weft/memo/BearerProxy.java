package dev.weft.memo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A resource server's front door for a server that checks no bearer tokens (Radicale): it admits a
 * request only when its {@code Authorization: Bearer} token is one {@code admits} accepts now, and
 * forwards it with the server's own Basic login; anything else is answered 401 as Google's CalDAV
 * answers an expired token. Thread-safe.
 */
public final class BearerProxy implements AutoCloseable {
    private static final Set<String> NOT_FORWARDED =
            Set.of("authorization", "host", "connection", "content-length", "transfer-encoding", "expect", "upgrade");

    private final HttpServer http;
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI target;
    private final String basic;
    private final Predicate<String> admits;
    private final AtomicInteger refused = new AtomicInteger();

    private BearerProxy(HttpServer http, URI target, String login, String password, Predicate<String> admits) {
        this.http = http;
        this.target = target;
        this.basic = "Basic "
                + Base64.getEncoder().encodeToString((login + ":" + password).getBytes(StandardCharsets.UTF_8));
        this.admits = admits;
    }

    /** A proxy on a free port of the loopback before {@code target}, logging in there as {@code login}. */
    public static BearerProxy start(URI target, String login, String password, Predicate<String> admits) {
        try {
            HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
            BearerProxy proxy = new BearerProxy(http, target, login, password, admits);
            http.createContext("/", proxy::handle);
            http.start();
            return proxy;
        } catch (IOException e) {
            throw new AssertionError("cannot start the bearer proxy", e);
        }
    }

    /** The proxy's root, standing for the server's. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + http.getAddress().getPort() + "/");
    }

    /** How many requests came without a token the authorization server admits. */
    public int refused() {
        return refused.get();
    }

    @Override
    public void close() {
        http.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            if (authorization == null
                    || !authorization.startsWith("Bearer ")
                    || !admits.test(authorization.substring("Bearer ".length()))) {
                refused.incrementAndGet();
                exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer error=\"invalid_token\"");
                exchange.sendResponseHeaders(401, -1);
                return;
            }
            byte[] body = exchange.getRequestBody().readAllBytes();
            HttpRequest.Builder forward = HttpRequest.newBuilder(
                            target.resolve(exchange.getRequestURI().getRawPath()))
                    .timeout(Duration.ofSeconds(10))
                    .method(
                            exchange.getRequestMethod(),
                            body.length == 0
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofByteArray(body))
                    .header("Authorization", basic);
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!NOT_FORWARDED.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                    values.forEach(value -> forward.header(name, value));
                }
            });
            HttpResponse<byte[]> answer = send(forward.build());
            answer.headers().map().forEach((name, values) -> {
                if (!NOT_FORWARDED.contains(name.toLowerCase(java.util.Locale.ROOT)) && !name.equals(":status")) {
                    exchange.getResponseHeaders().put(name, List.copyOf(values));
                }
            });
            byte[] bytes = answer.body();
            exchange.sendResponseHeaders(answer.statusCode(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }

    private HttpResponse<byte[]> send(HttpRequest request) throws IOException {
        try {
            try {
                return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            } catch (IOException stale) {
                // Radicale answers HTTP/1.0 and closes each connection; the pool may not have seen it yet
                return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
