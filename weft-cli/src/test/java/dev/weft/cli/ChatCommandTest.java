package dev.weft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.assistant.AssistantEnvironment;
import dev.weft.assistant.Assistants;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ChatCommandTest {
    @TempDir
    Path dir;

    @Test
    void theGreetingSaysWhoTheAssistantIsWhoYouAreAndHowToLeave() {
        try (RunStore store = Stores.open("sqlite:" + dir.resolve("weft.db"))) {
            Assistants assistants = Assistants.openAll(AssistantEnvironment.offline(store, dir));

            assertThat(ChatCommand.greeting(assistants.get("memo"), "root"))
                    .isEqualTo("Memo — your calendar, reminders, tasks, lists, email and notes. You are root. Write in"
                            + " English or Hebrew; type exit or press Ctrl-D to leave.");
            assertThat(ChatCommand.greeting(assistants.get("concierge"), "shop-web"))
                    .isEqualTo("The shop's concierge — products, quotes and orders; order status, cancellations,"
                            + " returns, exchanges and address changes. You are shop-web. Write in English or Hebrew;"
                            + " type exit or press Ctrl-D to leave.");
            // Every assistant's greeting is a sentence to a person: no listing's "in English and Hebrew"
            // before the "Write in English or Hebrew", no name glued to a dash.
            assertThat(assistants.all())
                    .allSatisfy(a -> assertThat(ChatCommand.greeting(a, "dana"))
                            .contains(". You are dana. ")
                            .doesNotContain("in English and Hebrew")
                            .doesNotContain("— dana")
                            .doesNotContain(".."));
        }
    }

    @Test
    void exitOrQuitLeavesTheChatInEitherLanguage() {
        assertThat(ChatCommand.leaves("exit")).isTrue();
        assertThat(ChatCommand.leaves("  Quit ")).isTrue();
        assertThat(ChatCommand.leaves("/exit")).isTrue();
        assertThat(ChatCommand.leaves("יציאה")).isTrue();
    }

    @Test
    void aSentenceThatMentionsLeavingIsSaidToTheAssistant() {
        assertThat(ChatCommand.leaves("remind me to exit the highway at 5")).isFalse();
        assertThat(ChatCommand.leaves("quit smoking reminder every day")).isFalse();
        assertThat(ChatCommand.leaves("")).isFalse();
    }
}
