package dev.weft.store;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.store.spi.SealedColumns.SealedColumn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Seals every stored secret again under a new key: each value of each sealed column is opened with the
 * old key and sealed with the new one, in one transaction, so a rotation is all or nothing. A value the
 * new key opens already (a rotation run twice) is left as it is; a value neither key opens stops the
 * rotation, with {@code E_SECRET_KEY}, and changes nothing. Stateless.
 */
public final class SecretRotation {
    private SecretRotation() {}

    /** What a rotation did: values sealed again, and values already under the new key, by column. */
    public record Report(Map<String, Integer> resealed, Map<String, Integer> alreadyNew) {
        public Report {
            resealed = Map.copyOf(resealed);
            alreadyNew = Map.copyOf(alreadyNew);
        }

        public int total() {
            return resealed.values().stream().mapToInt(Integer::intValue).sum();
        }
    }

    /**
     * Seals the values of {@code columns} in {@code store}'s database, now under {@code from}, under
     * {@code to}; a column whose table does not exist (its module never ran here) is skipped.
     *
     * @throws SecretKeyException if a value is sealed under neither key; nothing is changed then
     */
    public static Report rotate(RunStore store, SecretKeySource from, SecretKeySource to, List<SealedColumn> columns) {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Secrets old = Secrets.of(from, ErrorCode.E_SECRET_KEY, "give the key the secrets were sealed with");
        Secrets next = Secrets.of(to, ErrorCode.E_SECRET_KEY, "give the key the secrets were sealed with");
        AppDatabase db = AppDatabase.of(store);
        return db.write("seal the stored secrets under a new key", connection -> {
            Map<String, Integer> resealed = new LinkedHashMap<>();
            Map<String, Integer> alreadyNew = new LinkedHashMap<>();
            List<String> unreadable = new ArrayList<>();
            for (SealedColumn column : columns) {
                if (!exists(connection, column.table())) {
                    continue;
                }
                int sealedAgain = 0;
                int kept = 0;
                for (String value : values(connection, column)) {
                    java.util.Optional<String> opened = open(old, value);
                    if (opened.isEmpty()) {
                        if (open(next, value).isPresent()) {
                            kept++;
                        } else {
                            unreadable.add(column.toString());
                        }
                        continue;
                    }
                    try (PreparedStatement update = connection.prepareStatement("UPDATE " + column.table() + " SET "
                            + column.column() + " = ? WHERE " + column.column() + " = ?")) {
                        update.setString(1, next.encrypt(opened.get()));
                        update.setString(2, value);
                        sealedAgain += update.executeUpdate();
                    }
                }
                resealed.put(column.toString(), sealedAgain);
                alreadyNew.put(column.toString(), kept);
            }
            if (!unreadable.isEmpty()) {
                Map<String, Long> byColumn = new LinkedHashMap<>();
                unreadable.forEach(c -> byColumn.merge(c, 1L, Long::sum));
                // Thrown inside the transaction: it rolls back, and nothing is changed.
                throw new SecretKeyException(unreadable.size() + " stored secret(s) open with neither "
                        + from.describe() + " nor " + to.describe() + " " + byColumn
                        + "; nothing was changed: give the key they were sealed with");
            }
            return new Report(resealed, alreadyNew);
        });
    }

    /** The secret {@code value} opens to under {@code secrets}' key; empty if it is not sealed under it. */
    private static java.util.Optional<String> open(Secrets secrets, String value) {
        try {
            return java.util.Optional.of(secrets.decrypt(value));
        } catch (SecretKeyException e) {
            return java.util.Optional.empty();
        } catch (WeftException e) {
            throw new SecretKeyException("a stored value is not a sealed secret: " + e.getMessage());
        }
    }

    private static boolean exists(Connection connection, String table) throws SQLException {
        try (ResultSet tables = connection.getMetaData().getTables(null, null, table, null)) {
            return tables.next();
        }
    }

    private static List<String> values(Connection connection, SealedColumn column) throws SQLException {
        List<String> values = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT DISTINCT " + column.column() + " FROM "
                        + column.table() + " WHERE " + column.column() + " IS NOT NULL");
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                values.add(rows.getString(1));
            }
        }
        return values;
    }
}
