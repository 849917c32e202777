package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.NotFoundException;
import com.openai.errors.UnauthorizedException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.models.Model;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The OpenAI-compatible endpoint, called by the official OpenAI Java SDK, plainly and streamed. */
final class OpenAiClientIT {
    @TempDir
    Path dir;

    private ServerFixture fixture;
    private OpenAIClient dana;
    private OpenAIClient omer;

    @BeforeEach
    void start() {
        fixture = new ServerFixture(dir);
        dana = client(fixture.dana);
        omer = client(fixture.omer);
    }

    @AfterEach
    void stop() {
        dana.close();
        omer.close();
        fixture.close();
    }

    private OpenAIClient client(String key) {
        return OpenAIOkHttpClient.builder()
                .apiKey(key)
                .baseUrl(fixture.base.resolve("v1").toString())
                .maxRetries(0)
                .build();
    }

    private static ChatCompletionCreateParams message(String text) {
        return ChatCompletionCreateParams.builder()
                .model("memo")
                .addUserMessage(text)
                .build();
    }

    private static String plain(OpenAIClient client, String text) {
        ChatCompletion completion = client.chat().completions().create(message(text));
        assertThat(completion.choices()).hasSize(1);
        assertThat(completion.model()).isEqualTo("memo");
        return completion.choices().get(0).message().content().orElseThrow();
    }

    private static String streamed(OpenAIClient client, String text) {
        try (StreamResponse<ChatCompletionChunk> stream =
                client.chat().completions().createStreaming(message(text))) {
            List<ChatCompletionChunk> chunks = stream.stream().toList();
            assertThat(chunks.size()).isGreaterThan(2);
            assertThat(chunks.get(chunks.size() - 1).choices().get(0).finishReason())
                    .hasValueSatisfying(reason -> assertThat(reason.asString()).isEqualTo("stop"));
            return chunks.stream()
                    .flatMap(chunk -> chunk.choices().stream())
                    .flatMap(choice -> choice.delta().content().stream())
                    .collect(Collectors.joining());
        }
    }

    @Test
    void listsMemoAsItsOneModel() {
        List<Model> models = dana.models().list().data();

        assertThat(models).extracting(Model::id).containsExactly("memo");
    }

    @Test
    void answersInEnglishAndInHebrew() {
        String english = plain(dana, "remind me tomorrow at 9 to call the bank");
        String hebrew = plain(omer, "צור רשימת קניות עם חלב, ביצים ולחם");

        assertThat(english).startsWith("I'll remind you: \"call the bank\"");
        assertThat(hebrew).startsWith("יצרתי את הרשימה \"קניות\":").contains("חלב");
        assertThat(fixture.get("api/memo/lists", fixture.omer).body().path("lists"))
                .hasSize(1);
    }

    @Test
    void streamsTheSameReplyInChunksEndingWithStop() {
        String english = streamed(dana, "remind me tomorrow at 9 to call the bank");
        String hebrew = streamed(omer, "צור רשימת קניות עם חלב, ביצים ולחם");

        assertThat(english).startsWith("I'll remind you: \"call the bank\"");
        assertThat(hebrew).startsWith("יצרתי את הרשימה \"קניות\":").contains("☐ ביצים");
    }

    @Test
    void aBulkDeleteAsksFirstAndTheNextYesCarriesItOut() {
        plain(dana, "remind me tomorrow at 9 to call the bank");
        plain(dana, "remind me on Friday to water the plants");

        String asked = plain(dana, "delete all my reminders");
        assertThat(asked).contains("Shall I go ahead?");
        assertThat(fixture.get("api/memo/tasks", fixture.dana).body().path("tasks"))
                .hasSize(2);

        String done = streamed(dana, "yes");
        assertThat(done).isEqualTo("Deleted 2 tasks.");
        assertThat(fixture.get("api/memo/tasks", fixture.dana).body().path("tasks"))
                .isEmpty();
    }

    @Test
    void aHebrewYesApprovesAndANoLeavesEverything() {
        plain(omer, "remind me tomorrow at 9 to call the bank");

        assertThat(plain(omer, "מחק את כל התזכורות שלי")).endsWith("להמשיך? (כן/לא)");
        plain(omer, "לא");
        assertThat(fixture.get("api/memo/tasks", fixture.omer).body().path("tasks"))
                .hasSize(1);

        plain(omer, "מחק את כל התזכורות שלי");
        String done = plain(omer, "כן");
        assertThat(done).isEqualTo("מחקתי משימה אחת.");
        assertThat(fixture.get("api/memo/tasks", fixture.omer).body().path("tasks"))
                .isEmpty();
    }

    @Test
    void aYesWithNothingWaitingIsJustAMessage() {
        plain(dana, "remind me tomorrow at 9 to call the bank");
        plain(omer, "delete all my reminders");

        plain(dana, "yes");

        assertThat(fixture.get("api/memo/tasks", fixture.dana).body().path("tasks"))
                .hasSize(1);
    }

    @Test
    void aWrongKeyIsUnauthorizedAndAnotherModelIsNotFound() {
        OpenAIClient stranger = client("weft_nobody");
        try {
            assertThatThrownBy(() -> stranger.models().list()).isInstanceOf(UnauthorizedException.class);
        } finally {
            stranger.close();
        }
        assertThatThrownBy(() -> dana.chat()
                        .completions()
                        .create(ChatCompletionCreateParams.builder()
                                .model("gpt-4o")
                                .addUserMessage("hi")
                                .build()))
                .isInstanceOf(NotFoundException.class);
    }
}
