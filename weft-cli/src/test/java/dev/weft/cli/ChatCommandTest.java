package dev.weft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class ChatCommandTest {

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
