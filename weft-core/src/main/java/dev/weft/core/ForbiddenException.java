package dev.weft.core;

/** The caller may not do this: a user acting on another user's run ({@code E_FORBIDDEN}). Nothing changed. */
public final class ForbiddenException extends WeftException {
    private static final long serialVersionUID = 1L;

    public ForbiddenException(String message) {
        super(ErrorCode.E_FORBIDDEN, message);
    }
}
