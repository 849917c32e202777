package dev.weft.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ModelConfigTest {
    @TempDir
    Path home;

    private final Map<String, String> env = new HashMap<>();

    private Map<String, String> env() {
        env.put("WEFT_HOME", home.toString());
        return env;
    }

    private void configFile(String json) throws IOException {
        Files.writeString(home.resolve("config.json"), json);
    }

    private static ModelSettings noFlags() {
        return ModelSettings.flags(null, null);
    }

    @Test
    void isOfflineWhenNothingIsSet() {
        ModelConfig config = ModelConfig.resolve(noFlags(), env());

        assertThat(config.provider()).isEqualTo(Provider.OFFLINE);
        assertThat(config.label()).isEqualTo("offline:rules");
        assertThat(config.timeout()).isEqualTo(ModelConfig.DEFAULT_TIMEOUT);
    }

    @Test
    void readsTheModelAndKeyFromTheEnvironment() {
        env.put("WEFT_MODEL", "openai:gpt-4o-mini");
        env.put("OPENAI_API_KEY", "sk-env");

        ModelConfig config = ModelConfig.resolve(noFlags(), env());

        assertThat(config.provider()).isEqualTo(Provider.OPENAI);
        assertThat(config.model()).isEqualTo("gpt-4o-mini");
        assertThat(config.apiKey()).contains("sk-env");
        assertThat(config.baseUrl()).isEmpty();
    }

    @Test
    void flagsWinOverTheEnvironmentWhichWinsOverTheFile() throws IOException {
        configFile("""
                {"model": {"name": "anthropic:claude-from-file", "apiKey": "sk-file", "timeoutMs": 5000}}
                """);
        env.put("ANTHROPIC_API_KEY", "sk-ant-env");
        assertThat(ModelConfig.resolve(noFlags(), env()).label()).isEqualTo("anthropic:claude-from-file");
        assertThat(ModelConfig.resolve(noFlags(), env()).apiKey()).contains("sk-ant-env");
        assertThat(ModelConfig.resolve(noFlags(), env()).timeout()).isEqualTo(Duration.ofSeconds(5));

        env.put("WEFT_MODEL", "anthropic:claude-from-env");
        assertThat(ModelConfig.resolve(noFlags(), env()).label()).isEqualTo("anthropic:claude-from-env");

        ModelConfig flagged = ModelConfig.resolve(ModelSettings.flags("anthropic:claude-from-flag", null), env());
        assertThat(flagged.label()).isEqualTo("anthropic:claude-from-flag");
    }

    @Test
    void takesTheKeyFromTheFileWhenTheEnvironmentHasNone() throws IOException {
        configFile("{\"model\": {\"name\": \"openai:gpt-4o\", \"apiKey\": \"sk-file\"}, \"store\": {\"x\": 1}}");

        ModelConfig config = ModelConfig.resolve(noFlags(), env());

        assertThat(config.apiKey()).contains("sk-file");
    }

    @Test
    void aBaseUrlFlagWinsOverTheEnvironmentAndTheFile() throws IOException {
        configFile("{\"model\": {\"name\": \"openai:llama3\", \"baseUrl\": \"http://file:1/v1\"}}");
        env.put("WEFT_MODEL_BASE_URL", "http://env:2/v1");

        assertThat(ModelConfig.resolve(noFlags(), env()).baseUrl()).contains("http://env:2/v1");
        assertThat(ModelConfig.resolve(ModelSettings.flags(null, "http://flag:3/v1"), env())
                        .baseUrl())
                .contains("http://flag:3/v1");
    }

    @Test
    void aSourceNamingAnotherProviderLendsNeitherItsBaseUrlNorItsKey() throws IOException {
        configFile("{\"model\": {\"name\": \"openai:llama3\", \"baseUrl\": \"http://localhost:11434/v1\"}}");
        env.put("ANTHROPIC_API_KEY", "sk-ant");

        ModelConfig config = ModelConfig.resolve(ModelSettings.flags("anthropic:claude-haiku-4-5", null), env());

        assertThat(config.provider()).isEqualTo(Provider.ANTHROPIC);
        assertThat(config.baseUrl()).isEmpty();
    }

    @Test
    void anOpenAiCompatibleServerNeedsNoKey() {
        env.put("WEFT_MODEL", "openai:llama3.1:8b");
        env.put("WEFT_MODEL_BASE_URL", "http://localhost:11434/v1");

        ModelConfig config = ModelConfig.resolve(noFlags(), env());

        assertThat(config.model()).isEqualTo("llama3.1:8b");
        assertThat(config.apiKey()).isEmpty();
    }

    @Test
    void aMissingKeyIsModelUnavailableAtResolution() {
        env.put("WEFT_MODEL", "openai:gpt-4o-mini");

        assertThatThrownBy(() -> ModelConfig.resolve(noFlags(), env()))
                .isInstanceOf(ModelUnavailableException.class)
                .hasMessageContaining("OPENAI_API_KEY")
                .satisfies(e -> assertThat(((WeftException) e).code()).isEqualTo(ErrorCode.E_MODEL_UNAVAILABLE));
    }

    @Test
    void anthropicAlwaysNeedsAKey() {
        env.put("WEFT_MODEL", "anthropic:claude-sonnet-4-5");
        env.put("WEFT_MODEL_BASE_URL", "http://proxy:8080/v1/");

        assertThatThrownBy(() -> ModelConfig.resolve(noFlags(), env()))
                .isInstanceOf(ModelUnavailableException.class)
                .hasMessageContaining("ANTHROPIC_API_KEY");
    }

    @Test
    void aModelWithoutAProviderIsBadInput() {
        env.put("WEFT_MODEL", "gpt-4o");

        assertThatThrownBy(() -> ModelConfig.resolve(noFlags(), env()))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_BAD_INPUT))
                .hasMessageContaining("WEFT_MODEL 'gpt-4o' must be provider:model");
    }

    @Test
    void anUnknownProviderIsBadInput() {
        assertThatThrownBy(() -> ModelConfig.resolve(ModelSettings.flags("mistral:large", null), env()))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_BAD_INPUT))
                .hasMessageContaining("unknown model provider 'mistral' (known: openai, anthropic, offline)");
    }

    @Test
    void aBadBaseUrlIsBadInput() {
        env.put("WEFT_MODEL", "openai:x");
        env.put("WEFT_MODEL_BASE_URL", "localhost:11434");

        assertThatThrownBy(() -> ModelConfig.resolve(noFlags(), env()))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_BAD_INPUT))
                .hasMessageContaining("base URL 'localhost:11434'");
    }

    @Test
    void aMalformedConfigFileIsBadInputNamingTheFile() throws IOException {
        configFile("{\"model\": {\"name\": \"openai:x\", \"key\": \"oops\"}}");

        assertThatThrownBy(() -> ModelConfig.resolve(noFlags(), env()))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_BAD_INPUT))
                .hasMessageContaining("config.json")
                .hasMessageContaining("model.key is not a model setting");
    }

    @Test
    void bareOfflineIsAllowed() {
        env.put("WEFT_MODEL", "offline");

        assertThat(ModelConfig.resolve(noFlags(), env())).isEqualTo(ModelConfig.offline());
    }

    @Test
    void neverShowsTheKey() {
        ModelConfig config = new ModelConfig(
                Provider.OPENAI, "gpt-4o-mini", Optional.empty(), Optional.of("sk-secret"), Duration.ofSeconds(1));

        assertThat(config.toString()).doesNotContain("sk-secret").contains("key set");
    }

    @Test
    void modelsResolvesAnOverrideWithTheSameSources() {
        env.put("ANTHROPIC_API_KEY", "sk-ant");
        Models models = Models.resolve(noFlags(), env());

        assertThat(models.defaultModel().label()).isEqualTo("offline:rules");
        assertThat(models.model("anthropic:claude-haiku-4-5").label()).isEqualTo("anthropic:claude-haiku-4-5");
        assertThat(models.model("anthropic:claude-haiku-4-5")).isSameAs(models.model("anthropic:claude-haiku-4-5"));
        assertThatThrownBy(() -> models.model("openai:gpt-4o")).isInstanceOf(ModelUnavailableException.class);
    }
}
