package dev.weft.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * JSON values over the size limit, kept in the {@code payloads} table apart from the rows that refer
 * to them, so that rows stay small and listing runs never reads them. A payload is named by the
 * SHA-256 of its text and stored once per run, however many steps and checkpoints refer to it.
 * Thread-safe (no state but the limit).
 */
final class Payloads {
    private static final String EXISTS = "SELECT 1 FROM payloads WHERE run_id = ? AND id = ?";
    private static final String INSERT =
            "INSERT INTO payloads (run_id, id, size, data) VALUES (?, ?, ?, ?) ON CONFLICT (run_id, id) DO NOTHING";
    private static final String LOAD = "SELECT data FROM payloads WHERE run_id = ? AND id = ?";

    private final long limit;

    Payloads(long limit) {
        this.limit = limit;
    }

    /** A JSON value as a row holds it: its text, or (when over the limit) the name of its payload. */
    record Stored(@Nullable String text, @Nullable String ref) {}

    /** Values to store apart, collected while a transaction prepares its rows and written before it commits. */
    final class Pending {
        private final List<String[]> toWrite = new ArrayList<>(0);

        Stored store(String runId, JsonNode value) {
            return store(runId, JsonText.write(value));
        }

        Stored store(String runId, String text) {
            if (!isOverLimit(text)) {
                return new Stored(text, null);
            }
            String ref = sha256(text);
            toWrite.add(new String[] {runId, ref, text});
            return new Stored(null, ref);
        }

        /** The collected payloads ({run id, name, text} each), which this no longer holds. */
        List<String[]> drain() {
            List<String[]> drained = List.copyOf(toWrite);
            toWrite.clear();
            return drained;
        }

        /** Writes the collected payloads that the run does not have yet. */
        void write(Sql sql) throws SQLException {
            if (toWrite.isEmpty()) {
                return;
            }
            PreparedStatement exists = sql.prepare(EXISTS);
            PreparedStatement insert = sql.prepare(INSERT);
            for (String[] payload : toWrite) {
                exists.setString(1, payload[0]);
                exists.setString(2, payload[1]);
                boolean found;
                try (ResultSet row = exists.executeQuery()) {
                    found = row.next();
                }
                if (!found) {
                    insert.setString(1, payload[0]);
                    insert.setString(2, payload[1]);
                    insert.setLong(3, payload[2].getBytes(StandardCharsets.UTF_8).length);
                    insert.setString(4, payload[2]);
                    insert.executeUpdate();
                }
            }
            toWrite.clear();
        }
    }

    Pending pending() {
        return new Pending();
    }

    /** The value a row holds: parsed from {@code text}, or loaded from payload {@code ref}. */
    static JsonNode load(Sql sql, String runId, @Nullable String text, @Nullable String ref, String what)
            throws SQLException {
        if (text != null) {
            return JsonText.read(text, what);
        }
        if (ref == null) {
            throw new WeftException(ErrorCode.E_STORE_UNAVAILABLE, "the stored " + what + " is missing");
        }
        PreparedStatement load = sql.prepare(LOAD);
        load.setString(1, runId);
        load.setString(2, ref);
        try (ResultSet row = load.executeQuery()) {
            if (!row.next()) {
                throw new WeftException(
                        ErrorCode.E_STORE_UNAVAILABLE,
                        "the stored " + what + " refers to payload " + ref + ", which run " + runId + " lacks");
            }
            return JsonText.read(row.getString(1), what);
        }
    }

    private boolean isOverLimit(String text) {
        // UTF-8 takes at least one byte per char and at most three, so only texts in between are counted.
        if (text.length() > limit) {
            return true;
        }
        if ((long) text.length() * 3 <= limit) {
            return false;
        }
        return text.getBytes(StandardCharsets.UTF_8).length > limit;
    }

    private static String sha256(String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
