package dev.weft.mailflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.store.EmbeddedPostgres;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Mailflow's tables and its one-run-per-email claim on PostgreSQL (an embedded server the test starts). */
final class PostgresMailflowTest {
    @TempDir
    Path dir;

    @Test
    void venuesTemplatesAndClaimsWorkOnPostgresql() {
        try (RunStore store = Stores.open(EmbeddedPostgres.shared().freshUrl())) {
            Mailflow mailflow = Fixtures.mailflow(store, dir);
            mailflow.addVenue(Fixtures.oliveGrove("olive", Optional.of("olive-org")));
            Runner runner = Fixtures.runner(store);
            JsonNode first = mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-he-windows-1255.eml"))
                    .toJson();
            assertThat(first.path("status").asText()).isEqualTo("COMPLETED");
            assertThat(first.path("reply").path("offered"))
                    .extracting(JsonNode::asText)
                    .containsExactly("Garden");
            JsonNode again = mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-he-windows-1255.eml"))
                    .toJson();
            assertThat(again.path("duplicate").asBoolean()).isTrue();
            assertThat(store.listRuns(Optional.empty())).hasSize(1);
            assertThat(mailflow.template("olive").template().nodes()).hasSize(10);
            assertThat(mailflow.data().venues(Optional.of("olive-org"))).hasSize(1);
            assertThat(mailflow.data().venues(Optional.of("someone-else"))).isEmpty();
        }
    }
}
