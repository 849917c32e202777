package dev.weft.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.Run;
import dev.weft.core.RunStatus;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening stores from URLs, flags and the environment, and the errors of databases that cannot be used. */
final class StoresTest {
    @TempDir
    Path directory;

    private static Run run(String id) {
        return new Run(
                id,
                "graph",
                Optional.empty(),
                RunStatus.RUNNING,
                Json.object(),
                Map.of(),
                Map.of(),
                Json.object(),
                Optional.empty(),
                Instant.parse("2026-11-21T10:00:00Z"),
                Optional.empty(),
                Json.object(),
                Optional.empty());
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertFails(String url, ErrorCode code) {
        return assertThatThrownBy(() -> Stores.open(url).close())
                .isInstanceOf(WeftException.class)
                .satisfies(e -> assertThat(((WeftException) e).code()).isEqualTo(code))
                .hasMessageNotContaining("\n")
                .hasMessageNotContaining("Exception");
    }

    @Test
    void defaultUrl_isWeftDbWhenSet() {
        assertThat(Stores.defaultUrl(Map.of("WEFT_DB", "jdbc:postgresql://db/weft", "WEFT_HOME", "/srv/weft")))
                .isEqualTo("jdbc:postgresql://db/weft");
    }

    @Test
    void defaultUrl_isAFileInWeftHomeWhenSet() {
        assertThat(Stores.defaultUrl(Map.of("WEFT_HOME", "/srv/weft"))).isEqualTo("sqlite:/srv/weft/weft.db");
    }

    @Test
    void defaultUrl_isAFileInTheHomeDirectoryOtherwise() {
        assertThat(Stores.defaultUrl(Map.of("WEFT_DB", " ")))
                .isEqualTo("sqlite:" + Path.of(System.getProperty("user.home"), ".weft", "weft.db"));
    }

    @Test
    void url_prefersTheFlagToTheEnvironment() {
        Map<String, String> env = Map.of("WEFT_DB", "sqlite:/from/env.db");

        assertThat(Stores.url(Optional.of("sqlite:/from/flag.db"), env)).isEqualTo("sqlite:/from/flag.db");
        assertThat(Stores.url(Optional.empty(), env)).isEqualTo("sqlite:/from/env.db");
    }

    @Test
    void open_createsTheFileAndItsDirectoriesFromTheEnvironment() {
        Path home = directory.resolve("a/b/home");

        try (RunStore store = Stores.open(Optional.empty(), Map.of("WEFT_HOME", home.toString()))) {
            store.createRun(run("r1"));
        }

        assertThat(home.resolve("weft.db")).isRegularFile();
        try (RunStore store = Stores.open(Optional.of("jdbc:sqlite:" + home.resolve("weft.db")), Map.of())) {
            assertThat(store.findRun("r1")).isPresent();
        }
    }

    @Test
    void open_acceptsPostgresqlUrisWithCredentials() {
        EmbeddedPostgres postgres = EmbeddedPostgres.shared();
        String url = "postgresql://postgres:secret@localhost:" + postgres.port() + "/postgres?currentSchema=uri_form";

        try (RunStore store = Stores.open(url)) {
            store.createRun(run("r1"));
            assertThat(store.findRun("r1")).isPresent();
        }
    }

    @Test
    void open_rejectsAnUnknownScheme() {
        assertFails("mysql://localhost/weft", ErrorCode.E_BAD_INPUT)
                .hasMessage("unknown database URL 'mysql://localhost/weft':"
                        + " use sqlite:PATH or jdbc:postgresql://HOST:PORT/DATABASE");
    }

    @Test
    void open_rejectsASqliteUrlWithoutAFile() {
        assertFails("sqlite:", ErrorCode.E_BAD_INPUT).hasMessageContaining("names no file");
        assertFails("sqlite::memory:", ErrorCode.E_BAD_INPUT).hasMessageContaining("names no file");
    }

    @Test
    void open_failsOnAFileThatIsNotADatabase() throws IOException {
        Path notes = Files.writeString(directory.resolve("notes.txt"), "these are notes, not a database\n".repeat(200));

        assertFails("sqlite:" + notes, ErrorCode.E_STORE_UNAVAILABLE)
                .hasMessageStartingWith("cannot open database 'sqlite:" + notes + "': ")
                .hasMessageContaining("not a database");
    }

    @Test
    void open_failsWhenTheDirectoryCannotBeCreated() throws IOException {
        Path file = Files.writeString(directory.resolve("file"), "in the way");

        assertFails("sqlite:" + file.resolve("sub/weft.db"), ErrorCode.E_STORE_UNAVAILABLE)
                .hasMessage("cannot open database 'sqlite:" + file.resolve("sub/weft.db")
                        + "': cannot create its directory: '" + file.resolve("sub") + "': Not a directory");
    }

    @Test
    void open_failsOnADirectory() {
        assertFails("sqlite:" + directory, ErrorCode.E_STORE_UNAVAILABLE).hasMessageContaining("is a directory");
    }

    @Test
    void open_failsOnAnUnreachableServerWithoutShowingThePassword() {
        assertFails("jdbc:postgresql://127.0.0.1:1/weft?user=weft&password=secret", ErrorCode.E_STORE_UNAVAILABLE)
                .hasMessageStartingWith(
                        "cannot open database 'jdbc:postgresql://127.0.0.1:1/weft?user=weft&password=***': ")
                .hasMessageContaining("refused")
                .hasMessageNotContaining("secret");
        assertFails("postgres://weft:secret@127.0.0.1:1/weft", ErrorCode.E_STORE_UNAVAILABLE)
                .hasMessageStartingWith("cannot open database 'postgres://weft:***@127.0.0.1:1/weft': ")
                .hasMessageNotContaining("secret");
    }

    @Test
    void open_failsOnADatabaseThatDoesNotExist() {
        String url = EmbeddedPostgres.shared().url("no_such_database");

        assertFails(url, ErrorCode.E_STORE_UNAVAILABLE)
                .hasMessageContaining("no_such_database")
                .hasMessageContaining("does not exist");
    }

    @Test
    void open_refusesANonPositivePayloadLimit() {
        assertThatThrownBy(() -> Stores.open("sqlite:" + directory.resolve("weft.db"), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("payload limit must be positive, was 0");
    }

    @Test
    void mask_hidesPasswordsInEveryForm() {
        assertThat(DatabaseUrl.mask("jdbc:postgresql://h/db?user=u&password=p&ssl=true"))
                .isEqualTo("jdbc:postgresql://h/db?user=u&password=***&ssl=true");
        assertThat(DatabaseUrl.mask("postgresql://u:p@h:5432/db")).isEqualTo("postgresql://u:***@h:5432/db");
        assertThat(DatabaseUrl.mask("sqlite:/tmp/weft.db")).isEqualTo("sqlite:/tmp/weft.db");
    }
}
