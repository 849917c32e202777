package dev.weft.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.core.store.InMemoryRunStore;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An application's tables beside the runs, in SQLite and PostgreSQL alike. */
final class AppDatabaseTest {
    @TempDir
    Path dir;

    private String url(String kind) {
        return kind.equals("sqlite")
                ? "sqlite:" + dir.resolve("app.db")
                : EmbeddedPostgres.shared().freshUrl();
    }

    private static void insert(AppDatabase db, String user, String id, String text) {
        db.write("add a note", connection -> {
            try (PreparedStatement insert =
                    connection.prepareStatement("INSERT INTO apptest_notes (user_id, id, text) VALUES (?, ?, ?)")) {
                insert.setString(1, user);
                insert.setString(2, id);
                insert.setString(3, text);
                return insert.executeUpdate();
            }
        });
    }

    private static List<String> notes(AppDatabase db, String user) {
        return db.read("list notes", connection -> {
            try (PreparedStatement select =
                    connection.prepareStatement("SELECT text FROM apptest_notes WHERE user_id = ? ORDER BY id")) {
                select.setString(1, user);
                List<String> texts = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        texts.add(rows.getString(1));
                    }
                }
                return texts;
            }
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void anApplicationMigratesItsOwnTablesAndKeepsItsRowsBesideTheRuns(String kind) {
        String url = url(kind);
        try (RunStore store = Stores.open(url)) {
            AppDatabase db = AppDatabase.of(store);
            db.migrate("apptest", getClass().getClassLoader());
            db.migrate("apptest", getClass().getClassLoader());
            assertThat(db.dialect().name().toLowerCase(java.util.Locale.ROOT)).isEqualTo(kind);

            insert(db, "dana", "1", "buy milk");
            insert(db, "omer", "1", "call mom");
            assertThat(store.listRuns(Optional.empty())).isEmpty();
        }
        try (RunStore reopened = Stores.open(url)) {
            assertThat(notes(AppDatabase.of(reopened), "dana")).containsExactly("buy milk");
        }
    }

    @Test
    void aFailedWriteChangesNothing() {
        try (RunStore store = Stores.open(url("sqlite"))) {
            AppDatabase db = AppDatabase.of(store);
            db.migrate("apptest", getClass().getClassLoader());

            assertThatThrownBy(() -> db.write("add two notes", connection -> {
                        try (PreparedStatement insert = connection.prepareStatement(
                                "INSERT INTO apptest_notes (user_id, id, text) VALUES ('dana', '1', 'a')")) {
                            insert.executeUpdate();
                        }
                        throw new WeftException(ErrorCode.E_NOT_FOUND, "no such list");
                    }))
                    .hasMessage("no such list");
            assertThatThrownBy(() -> insert(db, "dana", "1", null))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("add a note");

            assertThat(notes(db, "dana")).isEmpty();
        }
    }

    @Test
    void theInMemoryStoreHasNoDatabase() {
        assertThatThrownBy(() -> AppDatabase.of(InMemoryRunStore.create()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Stores.open");
    }

    @Test
    void anApplicationWithoutMigrationsIsAClearError() {
        try (RunStore store = Stores.open(url("sqlite"))) {
            assertThatThrownBy(() -> AppDatabase.of(store)
                            .migrate("nothing_here", getClass().getClassLoader()))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("nothing_here");
        }
    }
}
