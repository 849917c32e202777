package dev.weft.server;

import dev.weft.core.ErrorCode;
import dev.weft.core.Run;
import dev.weft.core.WeftException;
import io.helidon.webserver.http.ServerRequest;
import java.util.Objects;

/** Who a request acts for: the user of its API key, and whether that key is an admin's. */
record Caller(String user, boolean admin, String keyId) {
    Caller {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(keyId, "keyId");
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
}
