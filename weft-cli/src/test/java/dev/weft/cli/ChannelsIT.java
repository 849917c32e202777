package dev.weft.cli;

import static dev.weft.cli.CommandRunner.weft;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.channels.FakeBotApi;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weft channels telegram} from the packaged jar against a fake Bot API, with the owner pairing
 * the chat through {@code weft channels pending} and {@code approve}, as a person would.
 */
final class ChannelsIT {
    @TempDir
    Path dir;

    @Test
    void aTelegramBotPairsAChatAndThenAnswersIt() throws Exception {
        String db = "sqlite:" + dir.resolve("weft.db");
        try (FakeBotApi api = new FakeBotApi()) {
            ProcessBuilder builder = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "--enable-native-access=ALL-UNNAMED",
                            "-jar",
                            Path.of("target", "weft.jar").toAbsolutePath().toString(),
                            "channels",
                            "telegram",
                            "--token-from-env",
                            "TELEGRAM_TOKEN",
                            "--api-url",
                            api.url().toString(),
                            "--db",
                            db)
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            builder.environment().put("TELEGRAM_TOKEN", FakeBotApi.TOKEN);
            builder.environment()
                    .put(
                            "WEFT_HOME",
                            Files.createDirectories(dir.resolve("home")).toString());
            Process bot = builder.start();
            try {
                BufferedReader out =
                        new BufferedReader(new InputStreamReader(bot.getInputStream(), StandardCharsets.UTF_8));
                assertThat(out.readLine())
                        .contains("Telegram bot @weft_bot is answering")
                        .as("the assistants' background services run as in weft serve")
                        .contains("In the background: memo/calendar-sync");

                api.say(501, "Dana", "remind me tomorrow at 9 to call Dana");
                String first = api.await(m -> m.chatId().equals("501"), Duration.ofSeconds(30))
                        .text();
                assertThat(first).contains("pairing code");

                JsonNode pending =
                        weft("channels", "pending", "--json", "--db", db).json();
                assertThat(pending.path("pending")).hasSize(1);
                String code = pending.path("pending").get(0).path("code").asText();
                assertThat(first).contains(code);
                CommandRunner.Outcome approved = weft("channels", "approve", code, "--user", "dana", "--db", db);
                assertThat(approved.exitCode()).as(approved.err()).isZero();
                assertThat(approved.out()).contains("talks as 'dana'");

                api.say(501, "Dana", "remind me tomorrow at 9 to call Dana");
                assertThat(api.await(
                                        m -> m.text().contains("call Dana")
                                                && !m.text().contains("pairing"),
                                        Duration.ofSeconds(60))
                                .chatId())
                        .isEqualTo("501");
                assertThat(weft("channels", "list", "--json", "--db", db)
                                .json()
                                .path("chats")
                                .get(0)
                                .path("user")
                                .asText())
                        .isEqualTo("dana");
            } finally {
                bot.destroy();
                assertThat(bot.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
        }
    }

    @Test
    void badInvocationsSayWhatIsWrong() {
        String db = "sqlite:" + dir.resolve("weft.db");
        CommandRunner.Outcome noToken = weft("channels", "telegram", "--token-from-env", "NOPE_NOT_SET", "--db", db);
        assertThat(noToken.exitCode()).isEqualTo(2);
        assertThat(noToken.err()).contains("E_BAD_INPUT").contains("NOPE_NOT_SET");
        CommandRunner.Outcome unknown = weft("channels", "approve", "ABCD-EFGH", "--db", db);
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("E_NOT_FOUND").contains("weft channels pending");
        assertThat(weft("channels", "pending", "--db", db).out()).contains("No chat is waiting");
        assertThat(weft("channels", "approve", "X", "--assistant", "nobody", "--db", db)
                        .err())
                .contains("no assistant 'nobody'");
    }
}
