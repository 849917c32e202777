package dev.weft.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.llm.test.FakeModelServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class EmbedderTest {
    @TempDir
    Path home;

    @Test
    void offlineModel_placesParaphrasesCloserThanUnrelatedTexts() {
        Embedder embedder = Embedder.offline();
        List<float[]> vectors = embedder.embedAll(List.of(
                "The project is running late and will miss its deadline",
                "the launch is behind schedule",
                "I love the smell of fresh bread in the morning"));

        assertThat(vectors).hasSize(3).allSatisfy(v -> assertThat(v).hasSize(384));
        assertThat(Embedder.cosine(vectors.get(0), vectors.get(0)))
                .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-4));
        assertThat(Embedder.cosine(vectors.get(0), vectors.get(1)))
                .isGreaterThan(Embedder.cosine(vectors.get(0), vectors.get(2)) + 0.1);
        assertThat(embedder.name()).isEqualTo(Embedder.OFFLINE_NAME);
    }

    @Test
    void offlineModel_isChosenWhenNothingIsSet() {
        assertThat(Embedder.fromEnvironment(Map.of("WEFT_HOME", home.toString())))
                .isSameAs(Embedder.offline());
        assertThat(Embedder.fromEnvironment(Map.of("WEFT_HOME", home.toString(), Embedder.VARIABLE, "offline")))
                .isSameAs(Embedder.offline());
    }

    @Test
    void openAiModel_embedsThroughTheProvidersWireProtocol() {
        try (FakeModelServer fake = FakeModelServer.start()) {
            fake.requireKey("sk-test");
            Embedder embedder = Embedder.fromEnvironment(Map.of(
                    "WEFT_HOME",
                    home.toString(),
                    Embedder.VARIABLE,
                    "openai:text-embedding-3-small",
                    "WEFT_MODEL_BASE_URL",
                    fake.openAiBaseUrl(),
                    "OPENAI_API_KEY",
                    "sk-test"));

            List<float[]> vectors = embedder.embedAll(List.of("call Dana about the report", "Dana report"));

            assertThat(embedder.name()).isEqualTo("openai:text-embedding-3-small");
            assertThat(vectors).hasSize(2).allSatisfy(v -> assertThat(v).hasSize(FakeModelServer.EMBEDDING_DIMENSIONS));
            assertThat(Embedder.cosine(vectors.get(0), vectors.get(1))).isGreaterThan(0.5);
            FakeModelServer.RecordedRequest request = fake.lastRequest();
            assertThat(request.path()).isEqualTo(FakeModelServer.EMBEDDINGS_PATH);
            assertThat(request.body().path("model").asText()).isEqualTo("text-embedding-3-small");
        }
    }

    @Test
    void openAiModel_refusingTheKey_isModelUnavailable() {
        try (FakeModelServer fake = FakeModelServer.start()) {
            fake.requireKey("sk-right");
            Embedder embedder = Embedder.fromEnvironment(Map.of(
                    "WEFT_HOME",
                    home.toString(),
                    Embedder.VARIABLE,
                    "openai:text-embedding-3-small",
                    "WEFT_MODEL_BASE_URL",
                    fake.openAiBaseUrl(),
                    "OPENAI_API_KEY",
                    "sk-wrong"));

            assertThatThrownBy(() -> embedder.embed("hello"))
                    .isInstanceOf(ModelUnavailableException.class)
                    .extracting(e -> ((WeftException) e).code())
                    .isEqualTo(ErrorCode.E_MODEL_UNAVAILABLE);
        }
    }

    @Test
    void anthropic_hasNoEmbeddingModel() {
        assertThatThrownBy(() -> Embedder.fromEnvironment(Map.of(
                        "WEFT_HOME",
                        home.toString(),
                        Embedder.VARIABLE,
                        "anthropic:claude-sonnet-4-5",
                        "ANTHROPIC_API_KEY",
                        "k")))
                .isInstanceOf(WeftException.class)
                .hasMessageContaining("no embedding models")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_BAD_INPUT);
    }
}
