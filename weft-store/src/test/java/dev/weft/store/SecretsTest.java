package dev.weft.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The key for stored secrets: the deployment's ({@code WEFT_SECRET_KEY}, {@code WEFT_SECRET_KEY_FILE})
 * shared by every process, today's per-home key file without it, and a clear {@code E_SECRET_KEY} for a
 * key that is not one or a secret sealed under another key. On main before this, a second machine had
 * a key file of its own, and a secret sealed on the first failed as {@code E_MAIL_UNAVAILABLE}.
 */
final class SecretsTest {
    private static final String REMEDY = "add the account again";

    @TempDir
    Path dir;

    private static String newKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }

    private Secrets secrets(Map<String, String> env) {
        return Secrets.of(
                SecretKeySource.fromEnvironment(env::get, dir.resolve("home").resolve("mail.key")),
                ErrorCode.E_MAIL_UNAVAILABLE,
                REMEDY);
    }

    @Test
    void twoMachinesGivenTheSameKeyReadEachOthersSecrets() {
        String key = newKey();
        Secrets server = Secrets.of(
                SecretKeySource.fromEnvironment(Map.of("WEFT_SECRET_KEY", key)::get, dir.resolve("a/mail.key")),
                ErrorCode.E_MAIL_UNAVAILABLE,
                REMEDY);
        Secrets worker = Secrets.of(
                SecretKeySource.fromEnvironment(Map.of("WEFT_SECRET_KEY", key)::get, dir.resolve("b/mail.key")),
                ErrorCode.E_MAIL_UNAVAILABLE,
                REMEDY);

        String sealed = server.encrypt("hunter2");

        assertThat(worker.decrypt(sealed)).isEqualTo("hunter2");
        assertThat(sealed).doesNotContain("hunter2");
        assertThat(dir.resolve("a/mail.key")).doesNotExist();
    }

    @Test
    void aKeyFileNamedByTheEnvironmentIsTheSameKeyAsTheVariable() throws Exception {
        String key = newKey();
        Path file = dir.resolve("deployment.key");
        Files.writeString(file, key + "\n", StandardCharsets.US_ASCII);

        String sealed = secrets(Map.of("WEFT_SECRET_KEY", key)).encrypt("s3cret");

        assertThat(secrets(Map.of("WEFT_SECRET_KEY_FILE", file.toString())).decrypt(sealed))
                .isEqualTo("s3cret");
    }

    @Test
    void withoutTheEnvironmentTheHomeKeyFileIsMadeAndUsedAsBefore() {
        Secrets secrets = secrets(Map.of());

        String sealed = secrets.encrypt("pw");

        assertThat(secrets.source()).isEqualTo(new SecretKeySource.HomeFile(dir.resolve("home/mail.key")));
        assertThat(dir.resolve("home/mail.key")).exists();
        assertThat(secrets(Map.of()).decrypt(sealed)).isEqualTo("pw");
    }

    @Test
    void aSecretSealedUnderAnotherKeySaysSoWithTheSecretKeyCodeNeverGarbage() {
        String sealed = secrets(Map.of("WEFT_SECRET_KEY", newKey())).encrypt("pw");
        Secrets other = secrets(Map.of("WEFT_SECRET_KEY", newKey()));

        assertThatThrownBy(() -> other.decrypt(sealed))
                .isInstanceOf(SecretKeyException.class)
                .hasMessageStartingWith("a stored secret was encrypted with another key than WEFT_SECRET_KEY; ")
                .hasMessageEndingWith(REMEDY)
                .satisfies(e -> assertThat(((WeftException) e).code()).isEqualTo(ErrorCode.E_SECRET_KEY));
    }

    @Test
    void aSecretSealedUnderTheHomeKeyIsNotReadWithTheDeploymentsKey() {
        String sealed = secrets(Map.of()).encrypt("pw");

        assertThatThrownBy(() -> secrets(Map.of("WEFT_SECRET_KEY", newKey())).decrypt(sealed))
                .isInstanceOf(SecretKeyException.class)
                .hasMessageContaining("encrypted with another key");
    }

    @Test
    void aMissingHomeKeyFileWithAStoredSecretIsASecretKeyError() {
        String sealed = secrets(Map.of()).encrypt("pw");
        Secrets elsewhere = Secrets.of(
                SecretKeySource.fromEnvironment(Map.<String, String>of()::get, dir.resolve("other/mail.key")),
                ErrorCode.E_MAIL_UNAVAILABLE,
                REMEDY);

        assertThatThrownBy(() -> elsewhere.decrypt(sealed))
                .isInstanceOf(SecretKeyException.class)
                .hasMessageStartingWith("the key file " + dir.resolve("other/mail.key") + " is missing");
        assertThat(dir.resolve("other/mail.key")).doesNotExist();
    }

    @Test
    void aKeyThatIsNotBase64IsRefusedWithTheSecretKeyCode() {
        assertThatThrownBy(() -> secrets(Map.of("WEFT_SECRET_KEY", "not base64!")))
                .isInstanceOf(SecretKeyException.class)
                .hasMessageStartingWith("WEFT_SECRET_KEY is not base64");
    }

    @Test
    void aKeyOfTheWrongLengthIsRefusedAndSaysHowLongItWas() {
        String sixteen = Base64.getEncoder().encodeToString(new byte[16]);

        assertThatThrownBy(() -> secrets(Map.of("WEFT_SECRET_KEY", sixteen)))
                .isInstanceOf(SecretKeyException.class)
                .hasMessage("WEFT_SECRET_KEY must be 32 bytes in base64 (an AES-256 key), was 16 bytes; make a key"
                        + " with 'openssl rand -base64 32'");
    }

    @Test
    void aKeyFileThatDoesNotExistIsRefusedAndNamed() {
        Path missing = dir.resolve("nowhere.key");

        assertThatThrownBy(() -> secrets(Map.of("WEFT_SECRET_KEY_FILE", missing.toString())))
                .isInstanceOf(SecretKeyException.class)
                .hasMessageStartingWith("WEFT_SECRET_KEY_FILE names " + missing + ", which does not exist");
    }

    @Test
    void bothVariablesAtOnceAreRefused() throws Exception {
        Path file = dir.resolve("k");
        Files.writeString(file, newKey());

        assertThatThrownBy(() -> secrets(Map.of("WEFT_SECRET_KEY", newKey(), "WEFT_SECRET_KEY_FILE", file.toString())))
                .isInstanceOf(SecretKeyException.class)
                .hasMessageContaining("are both set");
    }

    @Test
    void theDeploymentsKeyStaysWhenAProcessPointsItsHomeKeyFileElsewhere() {
        String key = newKey();
        Secrets secrets = secrets(Map.of("WEFT_SECRET_KEY", key));

        secrets.useKeyFile(dir.resolve("elsewhere/mail.key"));

        assertThat(secrets.source().describe()).isEqualTo("WEFT_SECRET_KEY");
        assertThat(secrets.source().toString()).doesNotContain(key);
    }
}
