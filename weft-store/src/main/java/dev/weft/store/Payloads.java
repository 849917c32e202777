package dev.weft.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /** How many big values {@link #known} remembers, the most lately used. */
    static final int KNOWN_VALUES = 256;

    private final long limit;

    /**
     * Big values lately committed, by identity, with their run and payload name. A run's checkpoint
     * holds every output so far, and under {@link dev.weft.core.Durability#SYNC} each step's
     * transaction writes it whole: without this, a big output would be written out and hashed again
     * after every later step (about 14 ms a step for 2 MiB on the development VM). Outputs are the same
     * object from step to step (a node must not change a value once it has returned it), so a value
     * found here is stored already: its payload row was committed in its run and goes only with the
     * run. Keys hold their values weakly; guarded by itself.
     */
    private final Map<IdentityKey, Known> known = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<IdentityKey, Known> eldest) {
            return size() > KNOWN_VALUES;
        }
    };
    /** Whether {@link #known} holds anything: most stores never see a big value, and skip the lookup. */
    private volatile boolean anyKnown;

    Payloads(long limit) {
        this.limit = limit;
    }

    private record Known(String runId, String ref) {}

    /** A big value a transaction stored, with its run and payload name. */
    private record Big(JsonNode value, String runId, String ref) {}

    /** A key that equals another holding the very same value, the way {@link java.util.IdentityHashMap} compares. */
    private abstract static class IdentityKey {
        private final int hash;

        IdentityKey(JsonNode value) {
            this.hash = System.identityHashCode(value);
        }

        abstract @Nullable JsonNode value();

        @Override
        public final int hashCode() {
            return hash;
        }

        @Override
        public final boolean equals(@Nullable Object other) {
            JsonNode value = value();
            return other == this
                    || (value != null && other instanceof IdentityKey key && key.hash == hash && key.value() == value);
        }
    }

    /** How {@link #known} keeps a value: weakly, so that it never keeps one alive. */
    private static final class Remembered extends IdentityKey {
        private final WeakReference<JsonNode> value;

        Remembered(JsonNode value) {
            super(value);
            this.value = new WeakReference<>(value);
        }

        @Override
        @Nullable
        JsonNode value() {
            return value.get();
        }
    }

    /** How {@link #known} is asked for a value. */
    private static final class Lookup extends IdentityKey {
        private final JsonNode value;

        Lookup(JsonNode value) {
            super(value);
            this.value = value;
        }

        @Override
        JsonNode value() {
            return value;
        }
    }

    /** The payload name of {@code value} if it is a big value already committed in run {@code runId}. */
    private @Nullable String knownRef(String runId, JsonNode value) {
        // Numbers, booleans and null are never big.
        if (!anyKnown || value.isNumber() || value.isBoolean() || value.isNull()) {
            return null;
        }
        Known found;
        synchronized (known) {
            found = known.get(new Lookup(value));
        }
        return found != null && found.runId().equals(runId) ? found.ref() : null;
    }

    private void remember(List<Big> values) {
        synchronized (known) {
            for (Big value : values) {
                known.put(new Remembered(value.value()), new Known(value.runId(), value.ref()));
            }
        }
        anyKnown = true;
    }

    /** A JSON value as a row holds it: its text, or (when over the limit) the name of its payload. */
    record Stored(@Nullable String text, @Nullable String ref) {}

    /** Values to store apart, collected while a transaction prepares its rows and written before it commits. */
    final class Pending {
        private final List<String[]> toWrite = new ArrayList<>(0);
        /** The big values stored so far, for {@link #known} once committed. */
        private final List<Big> stored = new ArrayList<>(0);
        /** The small value stored last in this transaction, and its text. */
        private @Nullable JsonNode lastValue;

        private @Nullable String lastText;

        Stored store(String runId, JsonNode value) {
            String ref = knownRef(runId, value);
            if (ref == null) {
                // Stored already in this transaction: a step's output and the checkpoint that holds it.
                for (Big big : stored) {
                    if (big.value() == value && big.runId().equals(runId)) {
                        ref = big.ref();
                    }
                }
            }
            if (ref != null) {
                return new Stored(null, ref);
            }
            // A step's output is written twice in its transaction, in the step's row and in the
            // checkpoint after it: the same node, so its text is made once. Nothing runs between the
            // two writes that could change the node.
            if (lastValue == value) {
                return new Stored(lastText, null);
            }
            Stored result = store(runId, JsonText.write(value));
            if (result.ref() != null) {
                stored.add(new Big(value, runId, result.ref()));
            } else {
                lastValue = value;
                lastText = result.text();
            }
            return result;
        }

        Stored store(String runId, String text) {
            if (!isOverLimit(text)) {
                return new Stored(text, null);
            }
            String ref = sha256(text);
            toWrite.add(new String[] {runId, ref, text});
            return new Stored(null, ref);
        }

        /** Whether big values were collected that are still to be written. */
        boolean hasPayloads() {
            return !toWrite.isEmpty();
        }

        /** The collected payloads ({run id, name, text} each), which this no longer holds. */
        List<String[]> drain() {
            List<String[]> drained = List.copyOf(toWrite);
            toWrite.clear();
            return drained;
        }

        /**
         * Has the big values stored so far remembered once {@code sql}'s work is committed, so that
         * later transactions of their runs refer to them without writing them out again.
         */
        void rememberOnCommit(Sql sql) {
            if (!stored.isEmpty()) {
                List<Big> values = List.copyOf(stored);
                stored.clear();
                sql.afterCommit(() -> remember(values));
            }
        }

        /** Writes the collected payloads that the run does not have yet. */
        void write(Sql sql) throws SQLException {
            rememberOnCommit(sql);
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
