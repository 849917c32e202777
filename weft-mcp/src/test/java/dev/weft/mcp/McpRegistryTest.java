package dev.weft.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.store.EmbeddedPostgres;
import dev.weft.store.Stores;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class McpRegistryTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void keepsServersByNameOnBothDatabases(String kind) {
        try (RunStore store = Stores.open(
                kind.equals("postgresql") ? EmbeddedPostgres.shared().freshUrl() : "sqlite:" + dir.resolve("m.db"))) {
            McpRegistry registry = McpRegistry.open(store);
            McpServerConfig files = new McpServerConfig(
                    "files", new McpServerConfig.Transport.Stdio(List.of("npx", "-y", "server-filesystem", "/tmp")));
            McpServerConfig remote = new McpServerConfig(
                    "remote", new McpServerConfig.Transport.Http(URI.create("http://127.0.0.1:9/mcp")));
            registry.add(remote, Instant.now());
            registry.add(files, Instant.now());
            assertThat(registry.all()).containsExactly(files, remote);
            assertThatThrownBy(() -> registry.add(files, Instant.now()))
                    .isInstanceOf(WeftException.class)
                    .hasMessageContaining("registered already");
            assertThat(registry.remove("files")).isTrue();
            assertThat(registry.remove("files")).isFalse();
            assertThat(McpRegistry.open(store).find("remote")).contains(remote);
        }
    }

    @Test
    void badNamesAndAddressesAreRefusedWithTheirCode() {
        assertThatThrownBy(() -> new McpServerConfig("Files", new McpServerConfig.Transport.Stdio(List.of("x"))))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_BAD_INPUT));
        assertThatThrownBy(() -> new McpServerConfig.Transport.Stdio(List.of()))
                .hasMessageContaining("must name a program");
        assertThatThrownBy(() -> new McpServerConfig.Transport.Http(URI.create("file:///tmp/x")))
                .hasMessageContaining("http://");
        assertThat(McpToolAdapter.toolName("files", "read file/now")).isEqualTo("files.read_file_now");
    }
}
