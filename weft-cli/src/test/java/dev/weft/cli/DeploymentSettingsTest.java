package dev.weft.cli;

import static dev.weft.cli.CommandRunner.weftWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.redis.RedisSteps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The settings every process of a deployment reads: the key for stored secrets ({@code
 * WEFT_SECRET_KEY}, {@code WEFT_SECRET_KEY_FILE}), refused at start by every command when it is not a
 * key (new: before, the variables did not exist and each machine made a key of its own), and the
 * take-back time of steps queued on a Redis that stopped answering ({@code WEFT_REDIS_TAKEBACK}).
 */
final class DeploymentSettingsTest {
    @TempDir
    Path dir;

    @AfterEach
    void resetEnvironment() {
        Env.use(Map.of());
    }

    @Test
    void aCommandRefusesToStartWithASecretKeyThatIsNot32Bytes() {
        var outcome =
                weftWith(Map.of("WEFT_SECRET_KEY", Base64.getEncoder().encodeToString(new byte[16])), "runs", "list");

        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.INVALID);
        assertThat(outcome.err())
                .startsWith("weft: E_SECRET_KEY: WEFT_SECRET_KEY must be 32 bytes in base64 (an AES-256 key), was 16"
                        + " bytes");
    }

    @Test
    void aCommandAskedForJsonReportsABadKeyAsJsonWithItsCode() {
        var outcome = weftWith(Map.of("WEFT_SECRET_KEY", "%%%"), "runs", "list", "--json");

        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.INVALID);
        assertThat(outcome.json().path("error").path("code").asText()).isEqualTo("E_SECRET_KEY");
        assertThat(outcome.json().path("error").path("message").asText()).startsWith("WEFT_SECRET_KEY is not base64");
    }

    @Test
    void aKeyFileThatDoesNotExistIsNamedInTheError() {
        Path missing = dir.resolve("deployment.key");

        var outcome = weftWith(Map.of("WEFT_SECRET_KEY_FILE", missing.toString()), "runs", "list");

        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.INVALID);
        assertThat(outcome.err())
                .contains("E_SECRET_KEY: WEFT_SECRET_KEY_FILE names " + missing + ", which does not exist");
    }

    @Test
    void aGoodKeyLetsTheCommandRun() {
        byte[] key = new byte[32];
        key[0] = 1;

        var outcome = weftWith(Map.of("WEFT_SECRET_KEY", Base64.getEncoder().encodeToString(key)), "runs", "list");

        assertThat(outcome.exitCode()).as(outcome.err()).isZero();
    }

    @Test
    void helpIsShownWhateverTheKey() {
        var outcome = weftWith(Map.of("WEFT_SECRET_KEY", "bad"), "--help");

        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.out()).contains("Usage: weft");
    }

    @Test
    void theTakeBackTimeIsReadFromTheEnvironmentWithADefaultOfThirtySeconds() {
        Env.use(Map.of());
        assertThat(Storage.takeBack()).isEqualTo(RedisSteps.DEFAULT_TAKE_BACK).isEqualTo(Duration.ofSeconds(30));
        Env.use(Map.of("WEFT_REDIS_TAKEBACK", "10s"));
        assertThat(Storage.takeBack()).isEqualTo(Duration.ofSeconds(10));
        Env.use(Map.of("WEFT_REDIS_TAKEBACK", "PT1M"));
        assertThat(Storage.takeBack()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void aTakeBackTimeThatIsNotADurationIsABadInput() {
        Env.use(Map.of("WEFT_REDIS_TAKEBACK", "soon"));

        assertThatThrownBy(Storage::takeBack)
                .isInstanceOf(WeftException.class)
                .hasMessage("WEFT_REDIS_TAKEBACK must be a positive duration such as 10s, 2m or PT30S; was 'soon'")
                .satisfies(e -> assertThat(((WeftException) e).code()).isEqualTo(ErrorCode.E_BAD_INPUT));
    }
}
