package dev.weft.llm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * One source of model settings — command flags, the environment, or the config file — each field
 * absent when that source does not set it. {@link ModelConfig#resolve} merges them. Immutable.
 *
 * @param source where the settings came from, for error messages ({@code --model}, {@code
 *     WEFT_MODEL}, a file path)
 * @param model {@code provider:model}, e.g. {@code openai:gpt-4o-mini}
 */
public record ModelSettings(
        String source,
        Optional<String> model,
        Optional<String> baseUrl,
        Optional<String> apiKey,
        Optional<Duration> timeout) {

    /** The environment variable naming the model as {@code provider:model}. */
    public static final String MODEL_VARIABLE = "WEFT_MODEL";
    /** The environment variable holding the base URL (an OpenAI-compatible server, a proxy). */
    public static final String BASE_URL_VARIABLE = "WEFT_MODEL_BASE_URL";
    /** The environment variable holding the call timeout in milliseconds. */
    public static final String TIMEOUT_VARIABLE = "WEFT_MODEL_TIMEOUT_MS";
    /** The environment variable naming Weft's home directory (default {@code ~/.weft}). */
    public static final String HOME_VARIABLE = "WEFT_HOME";
    /** The config file's name inside {@code $WEFT_HOME}. */
    public static final String CONFIG_FILE = "config.json";

    private static final Set<String> FILE_FIELDS = Set.of("name", "baseUrl", "apiKey", "timeoutMs");

    public ModelSettings {
        Objects.requireNonNull(source, "source");
        model = model.filter(s -> !s.isBlank());
        baseUrl = baseUrl.filter(s -> !s.isBlank());
        apiKey = apiKey.filter(s -> !s.isBlank());
        Objects.requireNonNull(timeout, "timeout");
    }

    /** Settings that set nothing. */
    public static ModelSettings none(String source) {
        return new ModelSettings(source, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** Command-line flags: {@code --model provider:model} and {@code --base-url URL}, either may be null. */
    public static ModelSettings flags(@Nullable String model, @Nullable String baseUrl) {
        return new ModelSettings(
                "--model",
                Optional.ofNullable(model),
                Optional.ofNullable(baseUrl),
                Optional.empty(),
                Optional.empty());
    }

    public ModelSettings withApiKey(String apiKey) {
        return new ModelSettings(source, model, baseUrl, Optional.of(apiKey), timeout);
    }

    public ModelSettings withTimeout(Duration timeout) {
        return new ModelSettings(source, model, baseUrl, apiKey, Optional.of(timeout));
    }

    /**
     * {@code WEFT_MODEL}, {@code WEFT_MODEL_BASE_URL} and {@code WEFT_MODEL_TIMEOUT_MS} from {@code
     * environment}. (The provider's key variable is read by {@link ModelConfig#resolve} once the
     * provider is known.)
     */
    public static ModelSettings fromEnvironment(Map<String, String> environment) {
        Optional<Duration> timeout = Optional.ofNullable(environment.get(TIMEOUT_VARIABLE))
                .filter(s -> !s.isBlank())
                .map(text -> {
                    try {
                        return timeoutMillis(Long.parseLong(text.trim()), TIMEOUT_VARIABLE);
                    } catch (NumberFormatException e) {
                        throw new WeftException(
                                ErrorCode.E_BAD_INPUT,
                                TIMEOUT_VARIABLE + "=" + text + " is not a whole number of milliseconds");
                    }
                });
        return new ModelSettings(
                MODEL_VARIABLE,
                Optional.ofNullable(environment.get(MODEL_VARIABLE)),
                Optional.ofNullable(environment.get(BASE_URL_VARIABLE)),
                Optional.empty(),
                timeout);
    }

    /** {@code $WEFT_HOME/config.json}, where {@code WEFT_HOME} defaults to {@code ~/.weft}. */
    public static Path configFile(Map<String, String> environment) {
        String home = environment.get(HOME_VARIABLE);
        Path dir = home == null || home.isBlank() ? Path.of(System.getProperty("user.home"), ".weft") : Path.of(home);
        return dir.resolve(CONFIG_FILE);
    }

    /**
     * The {@code "model"} section of a config file: {@code {"model": {"name": "provider:model",
     * "baseUrl": URL, "apiKey": KEY, "timeoutMs": N}}}. A missing file sets nothing; other sections
     * are left to their owners.
     *
     * @throws WeftException {@code E_BAD_INPUT} naming the file for malformed JSON or an unknown or
     *     mistyped field
     */
    public static ModelSettings fromFile(Path file) {
        if (!Files.isRegularFile(file)) {
            return none(file.toString());
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "cannot read " + file + ": " + e.getMessage(), e);
        }
        JsonNode root = Json.parse(text, file.toString());
        JsonNode section = root.path("model");
        if (section.isMissingNode() || section.isNull()) {
            return none(file.toString());
        }
        if (!section.isObject()) {
            throw bad(file, "\"model\" must be an object with " + new TreeSet<>(FILE_FIELDS));
        }
        for (String field : (Iterable<String>) section::fieldNames) {
            if (!FILE_FIELDS.contains(field)) {
                throw bad(
                        file, "model." + field + " is not a model setting (known: " + new TreeSet<>(FILE_FIELDS) + ")");
            }
        }
        Optional<Duration> timeout = Optional.empty();
        JsonNode timeoutMs = section.get("timeoutMs");
        if (timeoutMs != null && !timeoutMs.isNull()) {
            if (!timeoutMs.canConvertToLong() || !timeoutMs.isIntegralNumber()) {
                throw bad(file, "model.timeoutMs must be a whole number of milliseconds");
            }
            timeout = Optional.of(timeoutMillis(timeoutMs.asLong(), file + ": model.timeoutMs"));
        }
        return new ModelSettings(
                file.toString(),
                string(file, section, "name"),
                string(file, section, "baseUrl"),
                string(file, section, "apiKey"),
                timeout);
    }

    private static Optional<String> string(Path file, JsonNode section, String field) {
        JsonNode value = section.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw bad(file, "model." + field + " must be a string");
        }
        return Optional.of(value.asText());
    }

    private static Duration timeoutMillis(long millis, String what) {
        if (millis < 1) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT, what + " must be a positive number of milliseconds, was " + millis);
        }
        return Duration.ofMillis(millis);
    }

    private static WeftException bad(Path file, String problem) {
        return new WeftException(ErrorCode.E_BAD_INPUT, file + ": " + problem);
    }
}
