package dev.weft.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** Reading JSON requests strictly and writing JSON responses and errors, the same way on every route. */
final class Http {
    /** The largest request body the API reads: 1 MiB. */
    static final int MAX_BODY = 1 << 20;

    private Http() {}

    /** The HTTP status a failure with {@code code} is answered with. */
    static int status(ErrorCode code) {
        return switch (code) {
            case E_UNAUTHORIZED, E_CUSTOMER_TOKEN_INVALID -> 401;
            case E_FORBIDDEN -> 403;
            case E_NOT_FOUND -> 404;
            case E_RUN_STATE -> 409;
            case E_TOO_LARGE -> 413;
            case E_BAD_INPUT, E_GRAPH_INVALID, E_PLAN_INVALID, E_PLAN_CYCLE, E_ARGS_INVALID, E_EMAIL_INVALID -> 400;
            case E_MAIL_NOT_CONFIGURED, E_AUTH_REVOKED, E_OUTCOME_UNKNOWN -> 409;
            case E_STORE_UNAVAILABLE, E_MODEL_UNAVAILABLE, E_MAIL_UNAVAILABLE -> 503;
            default -> 500;
        };
    }

    /** The code of a failure Helidon answered by its status alone, before any route. */
    static ErrorCode codeOf(int status) {
        return switch (status) {
            case 401 -> ErrorCode.E_UNAUTHORIZED;
            case 403 -> ErrorCode.E_FORBIDDEN;
            case 404 -> ErrorCode.E_NOT_FOUND;
            case 413 -> ErrorCode.E_TOO_LARGE;
            case 503 -> ErrorCode.E_UNAVAILABLE;
            default -> status < 500 ? ErrorCode.E_BAD_INPUT : ErrorCode.E_INTERNAL;
        };
    }

    static void json(ServerResponse res, int status, JsonNode body) {
        res.status(status);
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(Json.write(body).getBytes(StandardCharsets.UTF_8));
    }

    static void ok(ServerResponse res, JsonNode body) {
        json(res, 200, body);
    }

    /** {@code {"error": {"code", "message"}}} with the status of its code. */
    static void error(ServerResponse res, WeftException e) {
        error(res, status(e.code()), e.code(), e.getMessage());
    }

    static void error(ServerResponse res, int status, ErrorCode code, String message) {
        json(res, status, errorBody(code, message));
    }

    /**
     * {@code e} answered on {@code path}: in OpenAI's shape under {@code /v1} (what its clients read),
     * in Weft's everywhere else.
     */
    static void error(String path, ServerResponse res, WeftException e) {
        if (OpenAiApi.isOpenAi(path)) {
            json(res, status(e.code()), OpenAiApi.errorBody(status(e.code()), e));
        } else {
            error(res, e);
        }
    }

    /** {@code {"error": {"code", "message"}}}. */
    static ObjectNode errorBody(ErrorCode code, String message) {
        ObjectNode root = Json.object();
        ObjectNode error = root.putObject("error");
        error.put("code", code.name());
        error.put("message", message);
        return root;
    }

    /**
     * The error body of work that failed on another thread ({@code failure} is what its future threw):
     * its {@link WeftException}'s code and message, or {@code E_INTERNAL} for anything else.
     */
    static ObjectNode errorBody(Throwable failure) {
        Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                ? failure.getCause()
                : failure;
        return cause instanceof WeftException w
                ? errorBody(w.code(), w.getMessage())
                : errorBody(ErrorCode.E_INTERNAL, String.valueOf(cause));
    }

    /**
     * The request's body as {@code type}: a JSON object with no field {@code type} does not have. An
     * empty body reads as {@code {}}.
     *
     * @throws WeftException {@code E_BAD_INPUT} for text that is not JSON, a value of the wrong type or
     *     an unknown field; {@code E_TOO_LARGE} for a body over {@link #MAX_BODY}
     */
    static <T> T body(ServerRequest req, Class<T> type) {
        byte[] bytes = bytes(req);
        try {
            return Json.mapper().readValue(bytes.length == 0 ? "{}".getBytes(StandardCharsets.UTF_8) : bytes, type);
        } catch (UnrecognizedPropertyException e) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "unknown field '" + e.getPropertyName() + "' (known: " + e.getKnownPropertyIds() + ")");
        } catch (JsonProcessingException e) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT, "the request body is not what was expected: " + Json.describe(e));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The request's body as any JSON value ({@code {}} when empty). */
    static JsonNode tree(ServerRequest req) {
        byte[] bytes = bytes(req);
        if (bytes.length == 0) {
            return Json.object();
        }
        return Json.parse(new String(bytes, StandardCharsets.UTF_8), "the request body");
    }

    /** The request's body, at most {@link #MAX_BODY} bytes. */
    static byte[] bytes(ServerRequest req) {
        if (!req.content().hasEntity()) {
            return new byte[0];
        }
        try (InputStream in = req.content().inputStream()) {
            byte[] bytes = in.readNBytes(MAX_BODY + 1);
            if (bytes.length > MAX_BODY) {
                throw new WeftException(
                        ErrorCode.E_TOO_LARGE, "the request body is larger than " + MAX_BODY + " bytes");
            }
            return bytes;
        } catch (IOException e) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "cannot read the request body: " + e.getMessage());
        }
    }

    /** A query parameter, if given and not blank. */
    static Optional<String> query(ServerRequest req, String name) {
        return req.query().first(name).asOptional().filter(v -> !v.isBlank());
    }

    /** A whole-number query parameter within {@code [min, max]}, or {@code otherwise} when absent. */
    static int intQuery(ServerRequest req, String name, int otherwise, int min, int max) {
        Optional<String> text = query(req, name);
        if (text.isEmpty()) {
            return otherwise;
        }
        try {
            int value = Integer.parseInt(text.get().trim());
            if (value < min || value > max) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "?" + name + "=" + text.get() + ": a whole number from " + min + " to " + max + " is expected");
        }
    }
}
