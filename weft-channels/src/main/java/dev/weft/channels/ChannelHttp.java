package dev.weft.channels;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * JSON over HTTP to a channel's API, with its failures as {@link ChannelUnavailableException} ({@code
 * E_CHANNEL_UNAVAILABLE}), saying whether the request may have arrived. Thread-safe.
 */
final class ChannelHttp {
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String channel;

    ChannelHttp(String channel) {
        this.channel = channel;
    }

    /** The JSON answer to {@code request}; a status that is not 2xx fails, naming it and the API's words. */
    JsonNode send(HttpRequest request, String what) {
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (java.net.ConnectException e) {
            // Nothing left this host: the request cannot have arrived.
            throw new ChannelUnavailableException(
                    channel + ": cannot " + what + ": " + e.getClass().getSimpleName() + " " + e.getMessage(), false);
        } catch (IOException e) {
            throw new ChannelUnavailableException(
                    channel + ": cannot " + what + ": " + e.getClass().getSimpleName() + " " + e.getMessage(), true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChannelUnavailableException(channel + ": interrupted while trying to " + what, true);
        }
        if (response.statusCode() / 100 != 2) {
            String body = response.body().length() > 300 ? response.body().substring(0, 300) + "…" : response.body();
            throw new ChannelUnavailableException(
                    channel + ": cannot " + what + ": the API answered " + response.statusCode() + " " + body, false);
        }
        return response.body().isBlank() ? Json.object() : Json.parse(response.body(), channel + "'s answer");
    }

    static HttpRequest postJson(URI uri, JsonNode body, Map<String, String> headers, Duration timeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uri)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body)));
        headers.forEach(builder::header);
        return builder.build();
    }
}
