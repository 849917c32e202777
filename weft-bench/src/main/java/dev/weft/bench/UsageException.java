package dev.weft.bench;

/** A benchmark was called with arguments it does not understand; the message says which and why. */
final class UsageException extends IllegalArgumentException {
    UsageException(String message) {
        super(message);
    }
}
