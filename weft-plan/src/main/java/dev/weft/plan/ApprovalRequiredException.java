package dev.weft.plan;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;

/** A high-risk tool was called without a person's approval ({@code E_APPROVAL_REQUIRED}); nothing was done. */
public final class ApprovalRequiredException extends WeftException {
    private static final long serialVersionUID = 1L;

    public ApprovalRequiredException(String message) {
        super(ErrorCode.E_APPROVAL_REQUIRED, message);
    }
}
