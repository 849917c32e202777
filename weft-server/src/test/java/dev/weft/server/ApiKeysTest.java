package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.store.AppDatabase;
import dev.weft.store.EmbeddedPostgres;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** API keys in the store's database, on SQLite and PostgreSQL alike. */
final class ApiKeysTest {
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    @TempDir
    Path dir;

    private String url(String kind) {
        return kind.equals("sqlite")
                ? "sqlite:" + dir.resolve("keys.db")
                : EmbeddedPostgres.shared().freshUrl();
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aKeyLetsItsUserInUntilItIsRevoked(String kind) {
        try (RunStore store = Stores.open(url(kind))) {
            ApiKeys keys = ApiKeys.open(store);
            ApiKeys.Created dana = keys.create("dana", false, NOW);
            ApiKeys.Created root = keys.create("root", true, NOW);

            assertThat(keys.authenticate(dana.secret())).hasValueSatisfying(key -> {
                assertThat(key.user()).isEqualTo("dana");
                assertThat(key.admin()).isFalse();
            });
            assertThat(keys.authenticate(root.secret()))
                    .hasValueSatisfying(key -> assertThat(key.admin()).isTrue());
            assertThat(keys.authenticate(dana.secret() + "x")).isEmpty();
            assertThat(keys.authenticate("not a key")).isEmpty();

            assertThat(keys.revoke(dana.key().id(), NOW)).isTrue();
            assertThat(keys.revoke(dana.key().id(), NOW)).isFalse();
            assertThat(keys.authenticate(dana.secret())).isEmpty();
            assertThat(keys.list())
                    .extracting(ApiKeys.ApiKey::id, ApiKeys.ApiKey::revoked)
                    .containsExactlyInAnyOrder(
                            org.assertj.core.groups.Tuple.tuple(dana.key().id(), true),
                            org.assertj.core.groups.Tuple.tuple(root.key().id(), false));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void keepsOnlyAHashOfEachKey(String kind) {
        try (RunStore store = Stores.open(url(kind))) {
            ApiKeys keys = ApiKeys.open(store);
            String secret = keys.create("dana", false, NOW).secret();

            List<String> stored = AppDatabase.of(store).read("read keys", connection -> {
                List<String> values = new ArrayList<>();
                try (PreparedStatement select = connection.prepareStatement("SELECT * FROM server_api_keys");
                        ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        for (int i = 1; i <= rows.getMetaData().getColumnCount(); i++) {
                            values.add(String.valueOf(rows.getObject(i)));
                        }
                    }
                }
                return values;
            });
            assertThat(secret).startsWith("weft_").hasSizeGreaterThanOrEqualTo(5 + 43);
            assertThat(stored).noneMatch(value -> value.contains(secret.substring(5)));
            assertThat(stored).contains(ApiKeys.hash(secret));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite"})
    void refusesABlankUserAndAnUnknownKeyId(String kind) {
        try (RunStore store = Stores.open(url(kind))) {
            ApiKeys keys = ApiKeys.open(store);
            assertThatThrownBy(() -> keys.create(" ", false, NOW))
                    .isInstanceOfSatisfying(
                            WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_BAD_INPUT));
            assertThatThrownBy(() -> keys.revoke("key_nope", NOW))
                    .isInstanceOfSatisfying(
                            WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_NOT_FOUND));
        }
    }
}
