package dev.weft.cli;

import static dev.weft.cli.CommandRunner.weft;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class McpCommandTest {
    @TempDir
    Path dir;

    private String db() {
        return "sqlite:" + dir.resolve("weft.db");
    }

    @Test
    void addsListsAndRemovesServersKeepingTheCommandsOwnOptions() {
        CommandRunner.Outcome added = weft(
                "mcp",
                "add",
                "files",
                "--db",
                db(),
                "--command",
                "npx",
                "-y",
                "@modelcontextprotocol/server-filesystem",
                "/tmp");
        assertThat(added.exitCode()).as(added.err()).isZero();
        assertThat(added.out())
                .contains("Added MCP server 'files': npx -y @modelcontextprotocol/server-filesystem /tmp");
        assertThat(weft("mcp", "add", "remote", "--url", "http://127.0.0.1:9/mcp", "--db", db())
                        .exitCode())
                .isZero();

        CommandRunner.Outcome listed = weft("mcp", "list", "--json", "--db", db());
        assertThat(listed.json().path("servers").get(0).path("name").asText()).isEqualTo("files");
        assertThat(listed.json().path("servers").get(0).path("command").toString())
                .isEqualTo("[\"npx\",\"-y\",\"@modelcontextprotocol/server-filesystem\",\"/tmp\"]");
        assertThat(listed.json().path("servers").get(1).path("url").asText()).isEqualTo("http://127.0.0.1:9/mcp");
        assertThat(weft("mcp", "list", "--db", db()).out()).contains("remote  http://127.0.0.1:9/mcp");

        assertThat(weft("mcp", "remove", "files", "--db", db()).exitCode()).isZero();
        assertThat(weft("mcp", "list", "--json", "--db", db()).json().path("servers"))
                .hasSize(1);
    }

    @Test
    void badRegistrationsAreRefusedWithTheirCodeAndChangeNothing() {
        assertThat(weft("mcp", "add", "x", "--db", db()).err())
                .contains("E_BAD_INPUT")
                .contains("exactly one");
        assertThat(weft("mcp", "add", "x", "--command", "a", "--url", "http://h/mcp", "--db", db())
                        .exitCode())
                .isEqualTo(2);
        assertThat(weft("mcp", "add", "Bad Name", "--command", "a", "--db", db())
                        .err())
                .contains("E_BAD_INPUT")
                .contains("lower-case");
        assertThat(weft("mcp", "add", "x", "--url", "ftp://h/mcp", "--db", db()).err())
                .contains("http://");
        weft("mcp", "add", "x", "--command", "a", "--db", db());
        CommandRunner.Outcome again = weft("mcp", "add", "x", "--command", "b", "--db", db());
        assertThat(again.exitCode()).isEqualTo(2);
        assertThat(again.err()).contains("registered already");
        assertThat(weft("mcp", "list", "--json", "--db", db()).json().path("servers"))
                .hasSize(1);
        assertThat(weft("mcp", "remove", "nope", "--db", db()).err()).contains("E_NOT_FOUND");
        CommandRunner.Outcome unreachable = weft("mcp", "tools", "x", "--db", db());
        assertThat(unreachable.exitCode()).isEqualTo(1);
        assertThat(unreachable.err()).contains("cannot start MCP server 'x': no program 'a' on the PATH");
        weft("mcp", "add", "y", "--url", "http://127.0.0.1:9/mcp", "--db", db());
        assertThat(weft("mcp", "tools", "y", "--db", db()).err()).contains("cannot connect to MCP server 'y'");
    }
}
