package dev.weft.store;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** Turns a driver's, a pool's or Flyway's exception chain into one line a person can act on. */
final class Failures {
    private Failures() {}

    static String oneLine(Throwable failure) {
        Throwable root = failure;
        SQLException deepestSql = failure instanceof SQLException sql ? sql : null;
        for (Throwable cause = failure.getCause(); cause != null && cause != root; cause = cause.getCause()) {
            root = cause;
            if (cause instanceof SQLException sql) {
                deepestSql = sql;
            }
        }
        String network = network(root);
        if (deepestSql != null) {
            String message = firstLine(deepestSql.getMessage());
            if (network != null && !mentions(message, network)) {
                message = message.isEmpty() ? network : message + " (" + network + ")";
            }
            if (!message.isEmpty()) {
                return DatabaseUrl.mask(message);
            }
        }
        if (network != null) {
            return network;
        }
        if (root instanceof FileSystemException file) {
            return file(file);
        }
        String message = firstLine(root.getMessage());
        if (message.isEmpty()) {
            message = firstLine(failure.getMessage());
        }
        return DatabaseUrl.mask(message.isEmpty() ? root.getClass().getSimpleName() : message);
    }

    /** Whether the driver's message already says what the network failure says. */
    private static boolean mentions(String message, String network) {
        String lower = message.toLowerCase(Locale.ROOT);
        for (String word : List.of("refused", "timed out", "no route", "unknown host")) {
            if (network.startsWith(word) || network.contains(" " + word)) {
                return lower.contains(word);
            }
        }
        return lower.contains(network.toLowerCase(Locale.ROOT));
    }

    private static @Nullable String network(Throwable root) {
        return switch (root) {
            case UnknownHostException e -> "unknown host " + firstLine(e.getMessage());
            case ConnectException e -> "connection refused" + detail(e);
            case NoRouteToHostException e -> "no route to host" + detail(e);
            case SocketTimeoutException e -> "timed out" + detail(e);
            default -> null;
        };
    }

    private static String detail(Throwable e) {
        String message = firstLine(e.getMessage());
        return message.isEmpty() ? "" : ": " + message;
    }

    static String file(FileSystemException e) {
        String path = e.getFile();
        return switch (e) {
            case FileAlreadyExistsException ignored -> "'" + path + "' exists and is not a directory";
            case AccessDeniedException ignored -> "permission denied on '" + path + "'";
            default -> {
                String reason = e.getReason();
                yield "'" + path + "': " + (reason == null ? e.getClass().getSimpleName() : reason);
            }
        };
    }

    private static String firstLine(@Nullable String message) {
        if (message == null) {
            return "";
        }
        String trimmed = message.strip();
        int newline = trimmed.indexOf('\n');
        return (newline < 0 ? trimmed : trimmed.substring(0, newline)).strip();
    }
}
