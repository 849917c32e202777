package dev.weft.llm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.RetriableException;
import dev.langchain4j.exception.UnresolvedModelServerException;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.llm.ModelTransientException;
import dev.weft.llm.ModelUnavailableException;
import dev.weft.llm.Provider;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * Turns whatever a LangChain4j call threw into a Weft exception with a stable code: 429, 408, 5xx,
 * timeouts and unreachable servers are {@link ModelTransientException}s (retried); 401/403 and 404 are
 * {@link ModelUnavailableException}s; other 4xx are {@code E_BAD_INPUT}. Stateless.
 */
public final class ProviderErrors {
    private static final int MAX_MESSAGE = 300;

    private ProviderErrors() {}

    /**
     * The failure as Weft reports it.
     *
     * @param label {@code provider:model}, for the message
     * @param now the current time, to read a {@code Retry-After} given as a date
     */
    public static WeftException classify(Throwable failure, Provider provider, String label, Instant now) {
        if (failure instanceof WeftException weft) {
            return weft;
        }
        ProviderHttpClient.RefusedException refused = find(failure, ProviderHttpClient.RefusedException.class);
        HttpException http = refused != null ? refused : find(failure, HttpException.class);
        if (http != null) {
            int status = http.statusCode();
            String detail = detail(refused != null ? refused.body() : http.getMessage());
            Optional<Duration> retryAfter =
                    refused == null ? Optional.empty() : refused.retryAfter().flatMap(h -> retryAfter(h, now));
            return byStatus(status, detail, retryAfter, provider, label, failure);
        }
        if (find(failure, dev.langchain4j.exception.TimeoutException.class) != null
                || find(failure, HttpTimeoutException.class) != null
                || find(failure, java.util.concurrent.TimeoutException.class) != null) {
            return new ModelTransientException(
                    label + " did not answer in time", OptionalInt.empty(), Optional.empty(), failure);
        }
        if (find(failure, UnresolvedModelServerException.class) != null
                || find(failure, ConnectException.class) != null
                || find(failure, java.nio.channels.UnresolvedAddressException.class) != null) {
            return new ModelTransientException(
                    "cannot reach the server of " + label + ": " + rootMessage(failure),
                    OptionalInt.empty(),
                    Optional.empty(),
                    failure);
        }
        if (find(failure, IOException.class) != null || find(failure, RetriableException.class) != null) {
            return new ModelTransientException(
                    "the call to " + label + " failed: " + rootMessage(failure),
                    OptionalInt.empty(),
                    Optional.empty(),
                    failure);
        }
        return new WeftException(
                ErrorCode.E_MODEL_UNAVAILABLE, "the call to " + label + " failed: " + rootMessage(failure), failure);
    }

    private static WeftException byStatus(
            int status,
            String detail,
            Optional<Duration> retryAfter,
            Provider provider,
            String label,
            Throwable failure) {
        String suffix = detail.isEmpty() ? "" : ": " + detail;
        if (status == 401 || status == 403) {
            return new ModelUnavailableException(
                    "the provider rejected the API key (" + status + ") for " + label
                            + provider.keyVariable().map(v -> "; check " + v).orElse("") + suffix,
                    failure);
        }
        if (status == 404) {
            return new ModelUnavailableException(
                    "the provider does not know " + label + " (404); check the model name and base URL" + suffix,
                    failure);
        }
        if (status == 408 || status == 429 || status >= 500) {
            String what = status == 429
                    ? "is rate-limited (429)"
                    : status == 408 ? "timed out (408)" : "failed (" + status + ")";
            return new ModelTransientException(
                    label + " " + what
                            + retryAfter
                                    .map(d -> ", retry after " + d.toSeconds() + " s")
                                    .orElse("") + suffix,
                    OptionalInt.of(status),
                    retryAfter,
                    failure);
        }
        return new WeftException(
                ErrorCode.E_BAD_INPUT,
                "the provider rejected the request to " + label + " (" + status + ")" + suffix,
                failure);
    }

    /** {@code Retry-After} as seconds, or as an HTTP date relative to {@code now}. */
    static Optional<Duration> retryAfter(String header, Instant now) {
        String value = header.trim();
        try {
            long seconds = Long.parseLong(value);
            return seconds < 0 ? Optional.empty() : Optional.of(Duration.ofSeconds(seconds));
        } catch (NumberFormatException notSeconds) {
            try {
                Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME)
                        .toInstant();
                Duration wait = Duration.between(now, at);
                return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
            } catch (DateTimeParseException notDate) {
                return Optional.empty();
            }
        }
    }

    /** The provider's own error message from an OpenAI or Anthropic error body, else the body, shortened. */
    static String detail(@Nullable String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        String text = body.trim();
        try {
            JsonNode json = Json.mapper().readTree(text);
            JsonNode message = json.path("error").path("message");
            if (message.isTextual()) {
                text = message.asText();
            } else if (json.path("message").isTextual()) {
                text = json.path("message").asText();
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException notJson) {
            // keep the text
        }
        return text.length() > MAX_MESSAGE ? text.substring(0, MAX_MESSAGE) + "…" : text;
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null || message.isBlank() ? root.getClass().getSimpleName() : message;
    }

    private static <T extends Throwable> @Nullable T find(Throwable failure, Class<T> type) {
        Throwable current = failure;
        for (int depth = 0; current != null && depth < 20; depth++) {
            if (type.isInstance(current)) {
                return type.cast(current);
            }
            current = current.getCause();
        }
        return null;
    }
}
