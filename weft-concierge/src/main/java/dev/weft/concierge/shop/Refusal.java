package dev.weft.concierge.shop;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import java.util.Objects;

/**
 * A tool's refusal: the shop's policy does not allow what was asked ({@code E_POLICY}), the session has
 * not verified a customer ({@code E_FORBIDDEN}), or what was named is not the customer's ({@code
 * E_NOT_FOUND}). {@link #reason()} says why in a word a reply can be chosen by ({@code not_pending},
 * {@code not_verified}, …), and {@link #details()} carries what the reply needs (the order's status, the
 * variants in stock). Nothing was changed.
 */
public final class Refusal extends WeftException {
    private static final long serialVersionUID = 1L;

    private final String reason;
    private final transient ObjectNode details;

    public Refusal(ErrorCode code, String reason, String message, ObjectNode details) {
        super(code, message);
        this.reason = Objects.requireNonNull(reason, "reason");
        this.details = Objects.requireNonNull(details, "details").deepCopy();
    }

    public Refusal(ErrorCode code, String reason, String message) {
        this(code, reason, message, Json.object());
    }

    public String reason() {
        return reason;
    }

    public ObjectNode details() {
        return details.deepCopy();
    }

    /** {@code {"code", "message", "reason", "details"}}: how a refusal reaches the specialist and the run. */
    public ObjectNode toJson() {
        ObjectNode json = Json.object();
        json.put("code", code().name());
        json.put("message", getMessage());
        json.put("reason", reason);
        json.set("details", details.deepCopy());
        return json;
    }
}
