package dev.weft.cli;

import dev.weft.core.RunStatus;

/** The exit statuses every command shares. */
final class ExitCodes {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int INVALID = 2;
    static final int WAITING = 3;
    /** Ctrl-C at a prompt, as shells report a process ended by SIGINT. */
    static final int INTERRUPTED = 130;

    private ExitCodes() {}

    static int of(RunStatus status) {
        return switch (status) {
            case COMPLETED -> OK;
            case WAITING, PENDING, RUNNING -> WAITING;
            case FAILED, CANCELLED -> FAILED;
        };
    }
}
