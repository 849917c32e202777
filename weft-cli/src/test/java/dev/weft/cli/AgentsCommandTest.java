package dev.weft.cli;

import static dev.weft.cli.CommandRunner.weft;
import static dev.weft.cli.CommandRunner.weftWith;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code weft agents}: the remote A2A agents the assistants may ask, in {@code $WEFT_HOME/agents.json}. */
final class AgentsCommandTest {
    @AfterEach
    void forget() {
        weft("agents", "remove", "travel");
        weft("agents", "remove", "shop");
    }

    @Test
    void addsListsAndRemovesAgentsNamingTheKeysSettingButNeverTheKey() {
        CommandRunner.Outcome added = weft(
                "agents",
                "add",
                "travel",
                "https://travel.example/a2a/concierge",
                "--key-env",
                "TRAVEL_KEY",
                "--says",
                "travel agent",
                "--says",
                "סוכן הנסיעות");
        assertThat(added.exitCode()).as(added.err()).isZero();
        assertThat(added.out()).contains("Added A2A agent 'travel'").contains("(key from TRAVEL_KEY), risk high");
        assertThat(weft("agents", "add", "shop", "http://127.0.0.1:9/a2a/concierge", "--risk", "low")
                        .exitCode())
                .isZero();

        CommandRunner.Outcome listed =
                weftWith(Map.of("TRAVEL_KEY", "weft_secret-never-shown"), "agents", "list", "--json");
        assertThat(listed.json().path("agents")).hasSize(2);
        assertThat(listed.json().path("agents").get(0).path("name").asText()).isEqualTo("travel");
        assertThat(listed.json().path("agents").get(0).path("keyEnv").asText()).isEqualTo("TRAVEL_KEY");
        assertThat(listed.json().path("agents").get(0).path("says").toString()).contains("סוכן הנסיעות");
        assertThat(listed.json().path("agents").get(1).path("risk").asText()).isEqualTo("low");
        assertThat(listed.out()).doesNotContain("weft_secret-never-shown");
        assertThat(weft("agents", "list").out())
                .contains("travel  https://travel.example/a2a/concierge/.well-known/agent-card.json  key: TRAVEL_KEY");

        assertThat(weft("agents", "remove", "shop").exitCode()).isZero();
        assertThat(weft("agents", "list", "--json").json().path("agents")).hasSize(1);
    }

    @Test
    void theSettingAddsAgentsAndWinsOverTheFilesOfTheSameName() {
        weft("agents", "add", "travel", "https://travel.example/a2a/concierge");

        CommandRunner.Outcome listed = weftWith(
                Map.of(
                        "WEFT_A2A_AGENTS",
                        "[{\"name\": \"travel\", \"url\": \"https://other.example/a2a/memo\", \"risk\": \"low\"},"
                                + " {\"name\": \"shop\", \"url\": \"https://shop.example/a2a/concierge\"}]"),
                "agents",
                "list",
                "--json");

        assertThat(listed.json().path("agents")).hasSize(2);
        assertThat(listed.json().path("agents").get(0).path("url").asText())
                .isEqualTo("https://other.example/a2a/memo/.well-known/agent-card.json");
        assertThat(listed.json().path("agents").get(0).path("risk").asText()).isEqualTo("low");
    }

    @Test
    void badAgentsAreRefusedWithTheirCodeAndChangeNothing() {
        assertThat(weft("agents", "add", "bad name", "https://travel.example/a2a")
                        .err())
                .contains("E_AGENTS_INVALID");
        CommandRunner.Outcome ftp = weft("agents", "add", "travel", "ftp://travel.example/a2a");
        assertThat(ftp.exitCode()).isEqualTo(2);
        assertThat(ftp.err()).contains("E_AGENTS_INVALID").contains("http(s)");
        assertThat(weft("agents", "add", "travel", "https://travel.example/a2a", "--key-env", "not a var")
                        .err())
                .contains("E_AGENTS_INVALID")
                .contains("variable name");
        assertThat(weft("agents", "add", "travel", "https://travel.example/a2a", "--risk", "medium")
                        .err())
                .contains("E_AGENTS_INVALID")
                .contains("'high' or 'low'");
        assertThat(weftWith(Map.of("WEFT_A2A_AGENTS", "{not json"), "agents", "list")
                        .err())
                .contains("E_AGENTS_INVALID")
                .contains("WEFT_A2A_AGENTS is not JSON");
        assertThat(weftWith(
                                Map.of(
                                        "WEFT_A2A_AGENTS",
                                        "[{\"name\": \"x\", \"url\": \"https://h/a2a\", \"key\": \"s\"}]"),
                                "agents",
                                "list")
                        .err())
                .contains("E_AGENTS_INVALID")
                .contains("no field 'key'");
        assertThat(weft("agents", "remove", "nope").err()).contains("E_NOT_FOUND");
        assertThat(weft("agents", "list", "--json").json().path("agents")).isEmpty();
    }

    @Test
    void aMalformedAgentsFileIsStillReportedByListThoughARunningProcessKeepsItsAgents() throws Exception {
        java.nio.file.Path file = CommandRunner.HOME.resolve("agents.json");
        java.nio.file.Files.writeString(file, "{\"agents\": [{\"name\": ");
        try {
            CommandRunner.Outcome listed = weft("agents", "list");

            assertThat(listed.exitCode()).isEqualTo(2);
            assertThat(listed.err()).contains("E_AGENTS_INVALID").contains("agents.json");
        } finally {
            java.nio.file.Files.delete(file);
        }
    }
}
