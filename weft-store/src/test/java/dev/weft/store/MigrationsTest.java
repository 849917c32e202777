package dev.weft.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The migrations each dialect ships. */
final class MigrationsTest {
    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void theLatestVersionIsTheNewestMigrationOfEachDialect(String dialect) throws IOException {
        List<Integer> versions;
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/db/weft", dialect))) {
            versions = files.map(file -> file.getFileName().toString())
                    .filter(name -> name.matches("V\\d+__.+\\.sql"))
                    .map(name -> Integer.parseInt(name.substring(1, name.indexOf("__"))))
                    .sorted(Comparator.reverseOrder())
                    .toList();
        }

        assertThat(versions).isNotEmpty();
        assertThat(String.valueOf(versions.get(0))).isEqualTo(Migrations.LATEST_VERSIONS.get(dialect));
    }
}
