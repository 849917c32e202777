package dev.weft.server;

import dev.weft.core.NotFoundException;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The web page: {@code index.html} at {@code /} and its scripts, styles and icon at {@code
 * /assets/{file}}, all read from the jar (nothing from a CDN) and served without a key; the page asks
 * for one and sends it on every {@code /api} call. Thread-safe.
 */
final class WebPage {
    /** What an asset's name may be: no folders, no dots but the extension's. */
    private static final Pattern ASSET = Pattern.compile("[a-z0-9-]+\\.(html|js|css|svg)");

    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "svg", "image/svg+xml");

    /**
     * Only this origin's own scripts, styles and connections: the page loads nothing from elsewhere and
     * runs no inline script, so injected markup cannot run either.
     */
    private static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'"
            + " data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    void register(Routes routes) {
        routes.get("/", (req, res) -> send(res, "index.html"));
        routes.get("/assets/{file}", (req, res) -> send(res, file(req)));
    }

    /** Whether {@code path} is the page or one of its assets, which need no key. */
    static boolean isPage(String path) {
        return path.equals("/") || path.startsWith("/assets/");
    }

    private static String file(ServerRequest req) {
        return req.path().pathParameters().get("file");
    }

    private static void send(ServerResponse res, String file) {
        if (!ASSET.matcher(file).matches()) {
            throw new NotFoundException("no asset '" + file + "'");
        }
        try (InputStream in = WebPage.class.getResourceAsStream("web/" + file)) {
            if (in == null) {
                throw new NotFoundException("no asset '" + file + "'");
            }
            res.header(HeaderNames.CONTENT_TYPE, TYPES.get(file.substring(file.lastIndexOf('.') + 1)));
            res.header(HeaderNames.CACHE_CONTROL, "no-cache");
            res.header(HeaderNames.create("Content-Security-Policy"), POLICY);
            res.header(HeaderNames.create("X-Content-Type-Options"), "nosniff");
            res.header(HeaderNames.create("Referrer-Policy"), "no-referrer");
            res.send(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
