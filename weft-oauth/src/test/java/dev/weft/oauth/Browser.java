package dev.weft.oauth;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** What a person's browser does with a printed sign-in URL: opens it and follows the redirects. */
public final class Browser {
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NORMAL)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private Browser() {}

    /** Opens {@code url}, follows the redirects, and gives the last page's status. */
    public static int open(URI url) {
        try {
            HttpResponse<String> page = HTTP.send(
                    HttpRequest.newBuilder(url)
                            .timeout(Duration.ofSeconds(10))
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            return page.statusCode();
        } catch (IOException e) {
            throw new AssertionError("the browser cannot open " + url, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
