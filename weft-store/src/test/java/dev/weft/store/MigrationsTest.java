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
        // Flyway's versions: V7_3__… is 7.3, after V7__… and before V8__….
        List<String> versions;
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/db/weft", dialect))) {
            versions = files.map(file -> file.getFileName().toString())
                    .filter(name -> name.matches("V\\d+(_\\d+)*__.+\\.sql"))
                    .map(name -> name.substring(1, name.indexOf("__")).replace('_', '.'))
                    .sorted(Comparator.comparing(MigrationsTest::parts, MigrationsTest::compare)
                            .reversed())
                    .toList();
        }

        assertThat(versions).isNotEmpty();
        assertThat(versions.get(0)).isEqualTo(Migrations.LATEST_VERSIONS.get(dialect));
    }

    private static int[] parts(String version) {
        return java.util.Arrays.stream(version.split("\\."))
                .mapToInt(Integer::parseInt)
                .toArray();
    }

    private static int compare(int[] a, int[] b) {
        return java.util.Arrays.compare(a, b);
    }
}
