package dev.weft.server;

import dev.weft.channels.WhatsAppChannel;
import dev.weft.core.ErrorCode;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * {@code /channels/whatsapp}: the WhatsApp Cloud API's webhook, served without an API key (Meta signs
 * each body instead; {@link WhatsAppChannel} checks the signature before reading anything). Answers
 * {@code 404 E_NOT_FOUND} while WhatsApp is not configured ({@code WEFT_WHATSAPP_*}).
 */
final class ChannelRoutes {
    static final String WHATSAPP = "/channels/whatsapp";

    private final Optional<WhatsAppChannel> whatsapp;

    ChannelRoutes(Optional<WhatsAppChannel> whatsapp) {
        this.whatsapp = whatsapp;
    }

    /** Whether {@code path} is a channel's webhook, which authenticates itself rather than by API key. */
    static boolean isWebhook(String path) {
        return path.equals(WHATSAPP);
    }

    void register(Routes routes) {
        routes.get(WHATSAPP, this::verify);
        routes.post(WHATSAPP, this::receive);
    }

    private void verify(ServerRequest req, ServerResponse res) {
        if (whatsapp.isEmpty()) {
            notConfigured(res);
            return;
        }
        WhatsAppChannel.Answer answer = whatsapp.get()
                .verify(
                        Http.query(req, "hub.mode"),
                        Http.query(req, "hub.verify_token"),
                        Http.query(req, "hub.challenge"));
        text(res, answer);
    }

    private void receive(ServerRequest req, ServerResponse res) {
        if (whatsapp.isEmpty()) {
            notConfigured(res);
            return;
        }
        byte[] body;
        try (InputStream in = req.content().inputStream()) {
            body = in.readNBytes(Http.MAX_BODY + 1);
        } catch (IOException e) {
            Http.error(res, 400, ErrorCode.E_BAD_INPUT, "cannot read the body: " + e.getMessage());
            return;
        }
        if (body.length > Http.MAX_BODY) {
            Http.error(res, 413, ErrorCode.E_TOO_LARGE, "the body is larger than " + Http.MAX_BODY + " bytes");
            return;
        }
        WhatsAppChannel.Answer answer =
                whatsapp.get().receive(body, req.headers().first(HeaderNames.create("X-Hub-Signature-256")));
        if (answer.status() == 401) {
            Http.error(res, 401, ErrorCode.E_UNAUTHORIZED, answer.body());
        } else if (answer.status() == 400) {
            Http.error(res, 400, ErrorCode.E_BAD_INPUT, answer.body());
        } else {
            text(res, answer);
        }
    }

    private static void text(ServerResponse res, WhatsAppChannel.Answer answer) {
        res.status(answer.status());
        res.header(HeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
        res.send(answer.body().getBytes(StandardCharsets.UTF_8));
    }

    private static void notConfigured(ServerResponse res) {
        Http.error(
                res,
                404,
                ErrorCode.E_NOT_FOUND,
                "WhatsApp is not configured: set WEFT_WHATSAPP_VERIFY_TOKEN, WEFT_WHATSAPP_APP_SECRET,"
                        + " WEFT_WHATSAPP_TOKEN and WEFT_WHATSAPP_PHONE_NUMBER_ID for weft serve");
    }
}
