package dev.weft.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.spi.RunStore;
import dev.weft.store.spi.SealedColumns.SealedColumn;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sealing every stored secret again under a new key, on a real SQLite store: all or nothing. */
final class SecretRotationTest {
    private static final List<SealedColumn> COLUMNS = List.of(
            new SealedColumn("vault", "secret"), new SealedColumn("vault", "token"), new SealedColumn("absent", "x"));

    @TempDir
    Path dir;

    private RunStore store;
    private AppDatabase db;

    @BeforeEach
    void open() {
        store = Stores.open(Optional.of("sqlite:" + dir.resolve("runs.db")), Map.of());
        db = AppDatabase.of(store);
        db.write(
                "make the vault",
                c -> c.createStatement()
                        .executeUpdate("CREATE TABLE vault (id TEXT PRIMARY KEY, secret TEXT NOT NULL, token TEXT)"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static SecretKeySource key(String name) {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return new SecretKeySource.Given(name, new SecretKeySpec(bytes, "AES"));
    }

    private static Secrets under(SecretKeySource key) {
        return Secrets.of(key, ErrorCode.E_MAIL_UNAVAILABLE, "add it again");
    }

    private void put(String id, String secret, String token) {
        db.write("put " + id, c -> {
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO vault VALUES (?, ?, ?)")) {
                insert.setString(1, id);
                insert.setString(2, secret);
                insert.setString(3, token);
                return insert.executeUpdate();
            }
        });
    }

    private List<String> column(String name) {
        return db.read("read " + name, c -> {
            List<String> values = new ArrayList<>();
            try (PreparedStatement select = c.prepareStatement("SELECT " + name + " FROM vault ORDER BY id");
                    ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
            return values;
        });
    }

    @Test
    void everySecretIsSealedUnderTheNewKeyAndReadsAsBefore() {
        SecretKeySource old = key("old");
        SecretKeySource next = key("new");
        put("a", under(old).encrypt("pw-a"), under(old).encrypt("token-a"));
        put("b", under(old).encrypt("pw-b"), null);

        SecretRotation.Report report = SecretRotation.rotate(store, old, next, COLUMNS);

        assertThat(report.resealed()).containsEntry("vault.secret", 2).containsEntry("vault.token", 1);
        assertThat(report.total()).isEqualTo(3);
        assertThat(column("secret")).extracting(under(next)::decrypt).containsExactly("pw-a", "pw-b");
        assertThat(under(next).decrypt(column("token").get(0))).isEqualTo("token-a");
        assertThat(column("token").get(1)).isNull();
        assertThatThrownBy(() -> under(old).decrypt(column("secret").get(0))).isInstanceOf(SecretKeyException.class);
    }

    @Test
    void aRotationRunTwiceLeavesWhatIsUnderTheNewKeyAlready() {
        SecretKeySource old = key("old");
        SecretKeySource next = key("new");
        put("a", under(old).encrypt("pw-a"), null);
        SecretRotation.rotate(store, old, next, COLUMNS);
        List<String> once = column("secret");

        SecretRotation.Report again = SecretRotation.rotate(store, old, next, COLUMNS);

        assertThat(again.total()).isZero();
        assertThat(again.alreadyNew()).containsEntry("vault.secret", 1);
        assertThat(column("secret")).isEqualTo(once);
    }

    @Test
    void aSecretUnderNeitherKeyStopsTheRotationAndChangesNothing() {
        SecretKeySource old = key("old");
        SecretKeySource next = key("new");
        put("a", under(old).encrypt("pw-a"), null);
        put("b", under(key("stranger")).encrypt("pw-b"), null);
        List<String> before = column("secret");

        assertThatThrownBy(() -> SecretRotation.rotate(store, old, next, COLUMNS))
                .isInstanceOf(SecretKeyException.class)
                .hasMessage("1 stored secret(s) open with neither old nor new {vault.secret=1}; nothing was changed:"
                        + " give the key they were sealed with");
        assertThat(column("secret")).isEqualTo(before);
    }
}
