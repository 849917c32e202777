package dev.weft.llm.internal;

import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * LangChain4j's HTTP client, on the JDK's {@link java.net.http.HttpClient}, that keeps what
 * LangChain4j's own JDK client drops from a refused call: the {@code Retry-After} header. A refused
 * call throws {@link RefusedException}, which LangChain4j maps by status (429 → {@code
 * RateLimitException}, …) keeping it as the cause. Thread-safe.
 */
public final class ProviderHttpClient implements HttpClient {
    private final java.net.http.HttpClient delegate;
    private final @Nullable Duration readTimeout;

    private ProviderHttpClient(Builder builder) {
        java.net.http.HttpClient.Builder http =
                java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1);
        if (builder.connectTimeout != null) {
            http.connectTimeout(builder.connectTimeout);
        }
        this.delegate = http.build();
        this.readTimeout = builder.readTimeout;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A call the provider answered with a status outside 2xx: the status, the body and {@code Retry-After}. */
    public static final class RefusedException extends HttpException {
        private static final long serialVersionUID = 1L;

        private final @Nullable String retryAfter;
        private final String body;

        RefusedException(int status, String body, Optional<String> retryAfter) {
            super(status, body);
            this.body = body;
            this.retryAfter = retryAfter.orElse(null);
        }

        /** The raw {@code Retry-After} header: seconds, or an HTTP date. */
        public Optional<String> retryAfter() {
            return Optional.ofNullable(retryAfter);
        }

        public String body() {
            return body;
        }
    }

    @Override
    public SuccessfulHttpResponse execute(HttpRequest request) {
        try {
            HttpResponse<byte[]> response = delegate.send(toJdk(request), BodyHandlers.ofByteArray());
            if (!successful(response)) {
                throw refused(response, new String(response.body(), StandardCharsets.UTF_8));
            }
            return SuccessfulHttpResponse.builder()
                    .statusCode(response.statusCode())
                    .headers(response.headers().map())
                    .body(response.body())
                    .build();
        } catch (HttpTimeoutException e) {
            throw new TimeoutException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new dev.langchain4j.exception.LangChain4jException("interrupted while calling the model", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
        delegate.sendAsync(toJdk(request), BodyHandlers.ofInputStream())
                .thenAccept(response -> {
                    if (!successful(response)) {
                        String body;
                        try (InputStream in = response.body()) {
                            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                        } catch (IOException e) {
                            body = "cannot read the error body: " + e.getMessage();
                        }
                        quietly(listener, refused(response, body));
                        return;
                    }
                    try {
                        listener.onOpen(SuccessfulHttpResponse.builder()
                                .statusCode(response.statusCode())
                                .headers(response.headers().map())
                                .build());
                    } catch (RuntimeException e) {
                        // a listener's failure must not stop the stream
                    }
                    try (InputStream in = response.body()) {
                        parser.parse(in, listener);
                        listener.onClose();
                    } catch (IOException | RuntimeException e) {
                        quietly(listener, e);
                    }
                })
                .exceptionally(failure -> {
                    Throwable cause = failure.getCause() == null ? failure : failure.getCause();
                    quietly(listener, cause instanceof HttpTimeoutException ? new TimeoutException(cause) : cause);
                    return null;
                });
    }

    private static void quietly(ServerSentEventListener listener, Throwable error) {
        try {
            listener.onError(error);
        } catch (RuntimeException e) {
            // nothing more to tell
        }
    }

    private static RefusedException refused(HttpResponse<?> response, String body) {
        return new RefusedException(
                response.statusCode(), body, response.headers().firstValue("Retry-After"));
    }

    private static boolean successful(HttpResponse<?> response) {
        return response.statusCode() >= 200 && response.statusCode() < 300;
    }

    private java.net.http.HttpRequest toJdk(HttpRequest request) {
        java.net.http.HttpRequest.Builder builder = java.net.http.HttpRequest.newBuilder(URI.create(request.url()));
        request.headers().forEach((name, values) -> {
            if (values != null) {
                values.forEach(value -> builder.header(name, value));
            }
        });
        if (!request.formDataFiles().isEmpty() || !request.formDataFields().isEmpty()) {
            throw new UnsupportedOperationException("multipart requests are not used by Weft's model calls");
        }
        BodyPublisher body = request.body() == null ? BodyPublishers.noBody() : BodyPublishers.ofString(request.body());
        builder.method(request.method().name(), body);
        if (readTimeout != null) {
            builder.timeout(readTimeout);
        }
        return builder.build();
    }

    /** Builds a {@link ProviderHttpClient}; LangChain4j sets the timeouts from the model's {@code timeout}. */
    public static final class Builder implements HttpClientBuilder {
        private @Nullable Duration connectTimeout;
        private @Nullable Duration readTimeout;

        private Builder() {}

        @Override
        public @Nullable Duration connectTimeout() {
            return connectTimeout;
        }

        @Override
        public Builder connectTimeout(@Nullable Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        @Override
        public @Nullable Duration readTimeout() {
            return readTimeout;
        }

        @Override
        public Builder readTimeout(@Nullable Duration readTimeout) {
            this.readTimeout = readTimeout;
            return this;
        }

        @Override
        public ProviderHttpClient build() {
            return new ProviderHttpClient(this);
        }
    }
}
