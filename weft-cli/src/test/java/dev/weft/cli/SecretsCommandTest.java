package dev.weft.cli;

import static dev.weft.cli.CommandRunner.weftWith;
import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.MailAccounts;
import dev.weft.memo.data.MemoData;
import dev.weft.store.AppDatabase;
import dev.weft.store.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weft secrets rotate --from-file OLD}: a user's mail password, sealed on a machine with a key
 * file of its own, sealed again under the deployment's key, found through the modules' sealed columns.
 */
final class SecretsCommandTest {
    @TempDir
    Path dir;

    private static String newKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }

    @Test
    void rotateSealsAUsersMailPasswordUnderTheDeploymentsKey() throws Exception {
        String db = "sqlite:" + dir.resolve("runs.db");
        Path oldKey = dir.resolve("old.key");
        Files.writeString(oldKey, newKey());
        Path deploymentKey = dir.resolve("deployment.key");
        Files.writeString(deploymentKey, newKey());
        try (RunStore store = Stores.open(Optional.of(db), Map.of())) {
            MemoData data = MemoData.open(store);
            AppDatabase.of(store)
                    .write(
                            "a user",
                            c -> c.createStatement()
                                    .executeUpdate("INSERT INTO memo_users (id, language, time_zone, created_at)"
                                            + " VALUES ('dana', 'en', 'UTC', 0)"));
            data.mail().secrets().useKeyFile(oldKey);
            data.mail()
                    .add(
                            "dana",
                            "dana@example.com",
                            "imap.example.com",
                            993,
                            "smtp.example.com",
                            465,
                            "dana",
                            MailAccounts.Security.TLS,
                            MailAccounts.Auth.PASSWORD,
                            "hunter2",
                            Instant.now());
        }

        var outcome = weftWith(
                Map.of("WEFT_SECRET_KEY_FILE", deploymentKey.toString()),
                "secrets",
                "rotate",
                "--from-file",
                oldKey.toString(),
                "--db",
                db,
                "--json");

        assertThat(outcome.exitCode()).as(outcome.err() + outcome.out()).isZero();
        assertThat(outcome.json().path("resealed").asInt()).isEqualTo(1);
        assertThat(outcome.json()
                        .path("byColumn")
                        .path("memo_mail_accounts.secret")
                        .asInt())
                .isEqualTo(1);
        try (RunStore store = Stores.open(Optional.of(db), Map.of())) {
            MemoData data = MemoData.open(store);
            data.mail().secrets().useKeyFile(deploymentKey);
            MailAccounts.Account account = data.mail().find("dana").orElseThrow();
            assertThat(data.mail().secret(account)).isEqualTo("hunter2");
        }
    }

    @Test
    void rotateFromAKeyFileThatDoesNotExistIsASecretKeyError() {
        Path missing = dir.resolve("nowhere.key");

        var outcome = weftWith(
                Map.of(),
                "secrets",
                "rotate",
                "--from-file",
                missing.toString(),
                "--db",
                "sqlite:" + dir.resolve("runs.db"));

        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.INVALID);
        assertThat(outcome.err()).contains("E_SECRET_KEY").contains("the old key file " + missing + " does not exist");
    }
}
