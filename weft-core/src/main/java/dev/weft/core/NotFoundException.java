package dev.weft.core;

/** A run or other named thing that does not exist. */
public final class NotFoundException extends WeftException {
    private static final long serialVersionUID = 1L;

    public NotFoundException(String what) {
        super(ErrorCode.E_NOT_FOUND, what);
    }
}
