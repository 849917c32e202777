package dev.weft.cli;

import static dev.weft.cli.CommandRunner.weft;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weft keys create|list|revoke}. */
final class KeysCommandTest {
    @TempDir
    Path dir;

    private String db() {
        return "sqlite:" + dir.resolve("weft.db");
    }

    @Test
    void createsAKeyShownOnceListsItWithoutTheKeyAndRevokesIt() {
        CommandRunner.Outcome created = weft("keys", "create", "--user", "dana", "--admin", "--json", "--db", db());
        CommandRunner.Outcome plain = weft("keys", "create", "--user", "omer", "--db", db());
        JsonNode key = created.json();

        assertThat(created.exitCode()).as(created.err()).isZero();
        assertThat(key.path("key").asText()).startsWith("weft_");
        assertThat(key.path("user").asText()).isEqualTo("dana");
        assertThat(key.path("admin").asBoolean()).isTrue();
        assertThat(plain.out().strip()).startsWith("weft_").doesNotContain(" ");
        assertThat(plain.err()).contains("shown only this once");

        CommandRunner.Outcome listed = weft("keys", "list", "--json", "--db", db());
        assertThat(listed.json()).hasSize(2);
        assertThat(listed.out()).doesNotContain(key.path("key").asText().substring(5));

        String id = key.path("id").asText();
        CommandRunner.Outcome revoked = weft("keys", "revoke", id, "--db", db());
        assertThat(revoked.out()).contains("key " + id + " revoked");
        assertThat(weft("keys", "list", "--json", "--db", db())
                        .json()
                        .get(0)
                        .path("revokedAt")
                        .isNull())
                .isFalse();
    }

    @Test
    void revokingAnUnknownKeyIsExitTwoWithItsCode() {
        CommandRunner.Outcome outcome = weft("keys", "revoke", "key_nope", "--json", "--db", db());

        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.json().path("error").path("code").asText()).isEqualTo("E_NOT_FOUND");
    }

    @Test
    void aKeyNeedsAUser() {
        assertThat(weft("keys", "create", "--db", db()).exitCode()).isEqualTo(2);
    }
}
