package dev.weft.server;

import dev.weft.assistant.Assistant;
import dev.weft.assistant.Vouch;
import dev.weft.core.ErrorCode;
import dev.weft.core.Run;
import dev.weft.core.WeftException;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import java.util.Objects;
import java.util.Optional;

/**
 * Who a request acts for: the user of its API key, whether that key is an admin's, and the shop customer
 * the key was made for, if any (then the assistants act for that customer only).
 */
record Caller(String user, boolean admin, String keyId, Optional<String> customer) {
    Caller {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(customer, "customer");
    }

    Caller(String user, boolean admin, String keyId) {
        this(user, admin, keyId, Optional.empty());
    }

    /**
     * The routes a key made for one customer reaches: talking to an assistant, nothing else (not the
     * runs, conversations or data of the key's user, which are every customer's).
     */
    static boolean customerMayReach(String path) {
        return path.equals("/v1/models")
                || path.equals("/v1/chat/completions")
                || (path.startsWith("/api/assistants/") && path.endsWith("/messages"));
    }

    /** The caller the authentication filter found for {@code req}. */
    static Caller of(ServerRequest req) {
        return req.context()
                .get(Caller.class)
                .orElseThrow(() -> new WeftException(ErrorCode.E_UNAUTHORIZED, "this request carries no API key"));
    }

    /** Whether this caller may see {@code run}: their own, or any for an admin. */
    boolean sees(Run run) {
        return admin || run.user().map(user::equals).orElse(false);
    }

    /**
     * Who the caller vouches the person speaking to {@code assistant} is: the customer its key was made
     * for, or the token of the {@code X-Weft-Customer} header (checked by the assistant, which knows the
     * shop's key). Every route that talks to an assistant passes it on with the message.
     *
     * @throws WeftException {@code E_FORBIDDEN} when the key was made for one customer and the assistant
     *     serves no customers (Memo would act as the shop's own user); {@code E_BAD_INPUT} for a customer
     *     token sent with a key made for one customer
     */
    Optional<Vouch> vouch(ServerRequest req, Assistant assistant) {
        Optional<String> token = req.headers()
                .first(HeaderNames.create("X-Weft-Customer"))
                .map(String::strip)
                .filter(t -> !t.isEmpty());
        if (customer().isEmpty()) {
            return token.map(Vouch.SignedToken::new);
        }
        if (!assistant.servesCustomers()) {
            throw new WeftException(
                    ErrorCode.E_FORBIDDEN,
                    "this key was made for one customer: it talks to the assistants that serve customers only,"
                            + " not to '" + assistant.name() + "'");
        }
        if (token.isPresent()) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT, "this key was made for one customer; it takes no X-Weft-Customer header");
        }
        return Optional.of(new Vouch.BoundKey(customer().get()));
    }

    /**
     * The conversation of a request to {@code assistant} that names none. For Memo, the user's one
     * conversation. For an assistant that serves customers, never the key's one: the vouched customer's
     * own ({@code customer:<email>}, the email a key was made for or the token's {@code sub}, which the
     * assistant checks with the token and holds the conversation to), else a new one ({@code
     * <prefix>-<id>}).
     */
    String unnamedSession(ServerRequest req, Assistant assistant, String prefix) {
        if (!assistant.servesCustomers()) {
            return user;
        }
        Optional<String> email = customer()
                .or(() -> req.headers()
                        .first(HeaderNames.create("X-Weft-Customer"))
                        .flatMap(Caller::subject));
        return email.map(e -> "customer:" + e.strip().toLowerCase(java.util.Locale.ROOT))
                .orElseGet(() -> prefix + "-" + dev.weft.core.RunIds.next());
    }

    /**
     * The {@code sub} a JWT names, read without checking it: only to name the conversation, which the
     * assistant holds to the customer of a token it did check.
     */
    private static Optional<String> subject(String token) {
        String[] parts = token.strip().split("\\.");
        if (parts.length != 3) {
            return Optional.empty();
        }
        try {
            String payload = new String(
                    java.util.Base64.getUrlDecoder().decode(parts[1]), java.nio.charset.StandardCharsets.UTF_8);
            String sub = dev.weft.core.Json.parse(payload, "a customer token's claims")
                    .path("sub")
                    .asText("");
            return sub.isBlank() || sub.length() > 190 || sub.chars().anyMatch(Character::isISOControl)
                    ? Optional.empty()
                    : Optional.of(sub);
        } catch (IllegalArgumentException | WeftException e) {
            return Optional.empty();
        }
    }
}
