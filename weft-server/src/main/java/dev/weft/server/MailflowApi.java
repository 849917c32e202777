package dev.weft.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.Run;
import dev.weft.mailflow.Executions;
import dev.weft.mailflow.Mailflow;
import dev.weft.mailflow.MailflowWebhooks;
import dev.weft.mailflow.Processed;
import dev.weft.mailflow.Venue;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The email agent over HTTP: seed 003's webhooks ({@code POST /webhook/imap}, {@code
 * /webhook/outlook}, {@code /process}), authenticated by the venue's webhook secret rather than an API
 * key, and each organization's venues and executions under {@code /api/mailflow}, seen by its own keys
 * only. The work is {@link MailflowWebhooks}' and {@link Executions}'; this class reads requests and
 * writes answers.
 */
final class MailflowApi {
    private static final HeaderName SIGNATURE = HeaderNames.create(MailflowWebhooks.SIGNATURE_HEADER);
    private static final HeaderName VENUE = HeaderNames.create("X-Weft-Venue");

    private final Backend backend;
    private final Mailflow mailflow;
    private final MailflowWebhooks webhooks;

    MailflowApi(Backend backend, Mailflow mailflow) {
        this.backend = backend;
        this.mailflow = mailflow;
        this.webhooks = new MailflowWebhooks(mailflow);
    }

    /** Whether {@code path} is a webhook, which a venue's secret authenticates instead of an API key. */
    static boolean isWebhook(String path) {
        return path.equals("/webhook/imap") || path.equals("/webhook/outlook") || path.equals("/process");
    }

    void register(Routes routes) {
        routes.post("/webhook/imap", this::imap);
        routes.post("/webhook/outlook", this::outlook);
        routes.post("/process", this::process);
        routes.get("/api/mailflow/venues", this::venues);
        routes.get("/api/mailflow/venues/{id}", this::venue);
        routes.get("/api/mailflow/venues/{id}/executions", this::executions);
        routes.get("/api/mailflow/executions/{id}", this::execution);
    }

    private static String venueOf(ServerRequest req) {
        return Http.query(req, "venue")
                .or(() -> req.headers().first(VENUE))
                .orElseThrow(() -> new dev.weft.core.WeftException(
                        dev.weft.core.ErrorCode.E_BAD_INPUT, "name the venue: ?venue=ID (or the X-Weft-Venue header)"));
    }

    private void imap(ServerRequest req, ServerResponse res) {
        byte[] body = Http.bytes(req);
        Processed processed = webhooks.imap(
                backend.runner(),
                venueOf(req),
                req.headers().first(HeaderNames.CONTENT_TYPE),
                body,
                req.headers().first(SIGNATURE));
        Http.ok(res, processed.toJson());
    }

    private void process(ServerRequest req, ServerResponse res) {
        byte[] body = Http.bytes(req);
        boolean dryRun = Http.query(req, "dryRun").map(Boolean::parseBoolean).orElse(false);
        Http.ok(
                res,
                webhooks.process(
                                backend.runner(),
                                venueOf(req),
                                body,
                                req.headers().first(SIGNATURE),
                                dryRun)
                        .toJson());
    }

    private void outlook(ServerRequest req, ServerResponse res) {
        Optional<String> token = Http.query(req, "validationToken");
        byte[] body = token.isPresent() ? new byte[0] : Http.bytes(req);
        switch (webhooks.outlook(backend.runner(), venueOf(req), token, body)) {
            case MailflowWebhooks.OutlookResult.Validation validation -> {
                res.status(200);
                res.header(HeaderNames.CONTENT_TYPE, "text/plain");
                res.send(validation.token().getBytes(StandardCharsets.UTF_8));
            }
            case MailflowWebhooks.OutlookResult.Accepted accepted -> {
                ObjectNode node = Json.object();
                ArrayNode list = node.putArray("processed");
                accepted.processed().forEach(p -> list.add(p.toJson()));
                Http.json(res, 202, node);
            }
        }
    }

    private void venues(ServerRequest req, ServerResponse res) {
        Caller caller = Caller.of(req);
        ObjectNode node = Json.object();
        ArrayNode list = node.putArray("venues");
        mailflow.data()
                .venues(caller.admin() ? Optional.empty() : Optional.of(caller.user()))
                .forEach(v -> list.add(v.toJson()));
        Http.ok(res, node);
    }

    /** The caller's venue named in the path; another organization's is not found, as one that does not exist. */
    private Venue visibleVenue(ServerRequest req) {
        Caller caller = Caller.of(req);
        String id = req.path().pathParameters().get("id");
        return mailflow.data()
                .findVenue(id)
                .filter(v -> caller.admin() || v.organization().equals(caller.user()))
                .orElseThrow(() -> new NotFoundException("no venue '" + id + "'"));
    }

    private void venue(ServerRequest req, ServerResponse res) {
        Http.ok(res, visibleVenue(req).toJson());
    }

    private void executions(ServerRequest req, ServerResponse res) {
        Venue venue = visibleVenue(req);
        ObjectNode node = Json.object();
        node.put("venue_id", venue.id());
        node.set(
                "workflow_executions",
                Executions.list(mailflow.data(), backend.store(), venue.id(), Http.intQuery(req, "limit", 50, 1, 500)));
        Http.ok(res, node);
    }

    private void execution(ServerRequest req, ServerResponse res) {
        Run run = backend.visibleRun(Caller.of(req), req.path().pathParameters().get("id"));
        if (!Mailflow.isMailflowRun(run)) {
            throw new NotFoundException("no execution '" + run.id() + "'");
        }
        Http.ok(res, Executions.of(backend.runner().result(run.id())));
    }
}
