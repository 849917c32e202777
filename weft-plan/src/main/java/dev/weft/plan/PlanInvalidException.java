package dev.weft.plan;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;

/** A plan that cannot run: malformed, empty, with duplicate ids or dependencies on missing steps. */
public final class PlanInvalidException extends WeftException {
    private static final long serialVersionUID = 1L;

    public PlanInvalidException(String message) {
        super(ErrorCode.E_PLAN_INVALID, message);
    }

    PlanInvalidException(ErrorCode code, String message) {
        super(code, message);
    }
}
