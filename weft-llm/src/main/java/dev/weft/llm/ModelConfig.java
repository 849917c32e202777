package dev.weft.llm;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which model Weft calls and how: the provider, the model's name, an optional base URL, the API key
 * and the call timeout. Immutable; {@link #toString()} never shows the key.
 *
 * <p>{@link #resolve} reads, in this order, command flags, the environment ({@code WEFT_MODEL},
 * {@code WEFT_MODEL_BASE_URL}, {@code WEFT_MODEL_TIMEOUT_MS}, the provider's key variable such as
 * {@code OPENAI_API_KEY}) and {@code $WEFT_HOME/config.json}; with none of them set, the model is
 * {@code offline}.
 */
public record ModelConfig(
        Provider provider, String model, Optional<String> baseUrl, Optional<String> apiKey, Duration timeout) {

    /** The timeout of one call when none is set. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    /** The name of the offline model when {@code WEFT_MODEL=offline} names none. */
    public static final String OFFLINE_NAME = "rules";

    /**
     * @throws WeftException {@code E_BAD_INPUT} for a blank model name, a base URL that is not
     *     http(s), or a timeout that is not positive
     */
    public ModelConfig {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(apiKey, "apiKey");
        Objects.requireNonNull(timeout, "timeout");
        if (model.isBlank()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "the model name of provider " + provider.id() + " is empty");
        }
        baseUrl.ifPresent(ModelConfig::checkUrl);
        if (timeout.isNegative() || timeout.isZero()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "model timeout must be positive, was " + timeout);
        }
    }

    /** The offline model: rules only, no network. */
    public static ModelConfig offline() {
        return new ModelConfig(Provider.OFFLINE, OFFLINE_NAME, Optional.empty(), Optional.empty(), DEFAULT_TIMEOUT);
    }

    /** {@code provider:model}, e.g. {@code openai:gpt-4o-mini}. */
    public String label() {
        return provider.id() + ":" + model;
    }

    public ModelConfig withTimeout(Duration timeout) {
        return new ModelConfig(provider, model, baseUrl, apiKey, timeout);
    }

    /**
     * The configuration the process environment and {@code $WEFT_HOME/config.json} give, with {@code
     * flags} first.
     */
    public static ModelConfig resolve(ModelSettings flags) {
        return resolve(flags, System.getenv());
    }

    /**
     * Merges the settings: {@code flags}, then {@code environment}, then the config file found through
     * it ({@link ModelSettings#configFile}). Each field is taken from the first source that sets it,
     * except that a source naming another provider than the chosen one contributes no base URL and
     * no key. The key comes from the flags, then the provider's key variable (such as {@code
     * OPENAI_API_KEY}), then the file.
     *
     * @throws WeftException {@code E_BAD_INPUT} for malformed settings: a model without {@code
     *     provider:}, an unknown provider, a bad URL or timeout, an unreadable config file
     * @throws ModelUnavailableException when the chosen provider needs a key and none is set
     */
    public static ModelConfig resolve(ModelSettings flags, Map<String, String> environment) {
        Objects.requireNonNull(flags, "flags");
        Objects.requireNonNull(environment, "environment");
        ModelSettings env = ModelSettings.fromEnvironment(environment);
        ModelSettings file = ModelSettings.fromFile(ModelSettings.configFile(environment));
        return merge(List.of(flags, env, file), environment);
    }

    /** {@link #resolve} with {@code providerModel} in place of whatever model the sources name. */
    public static ModelConfig resolve(String providerModel, ModelSettings flags, Map<String, String> environment) {
        ModelSettings override = new ModelSettings(
                flags.source(), Optional.of(providerModel), flags.baseUrl(), flags.apiKey(), flags.timeout());
        return resolve(override, environment);
    }

    private static ModelConfig merge(List<ModelSettings> layers, Map<String, String> environment) {
        Provider provider = Provider.OFFLINE;
        String name = OFFLINE_NAME;
        for (ModelSettings layer : layers) {
            if (layer.model().isPresent()) {
                String[] parsed = parse(layer.model().get(), layer.source());
                provider = Provider.of(parsed[0]);
                name = parsed[1];
                break;
            }
        }
        Duration timeout = DEFAULT_TIMEOUT;
        for (ModelSettings layer : layers) {
            if (layer.timeout().isPresent()) {
                timeout = layer.timeout().get();
                break;
            }
        }
        if (provider == Provider.OFFLINE) {
            return new ModelConfig(provider, name, Optional.empty(), Optional.empty(), timeout);
        }
        Optional<String> baseUrl = Optional.empty();
        Optional<String> apiKey = Optional.empty();
        for (int i = 0; i < layers.size(); i++) {
            ModelSettings layer = layers.get(i);
            if (!sameProvider(layer, provider)) {
                continue;
            }
            if (baseUrl.isEmpty()) {
                baseUrl = layer.baseUrl();
            }
            if (apiKey.isEmpty()) {
                apiKey = layer.apiKey();
            }
            if (apiKey.isEmpty() && i == 0) {
                // the environment's key variable ranks right after the flags
                apiKey = provider.keyVariable().map(environment::get).filter(s -> !s.isBlank());
            }
        }
        if (apiKey.isEmpty() && provider.requiresKey(baseUrl)) {
            String variable = provider.keyVariable().orElseThrow();
            throw new ModelUnavailableException("no API key for " + provider.id() + ":" + name + ": set " + variable
                    + " (or \"apiKey\" in the \"model\" section of $WEFT_HOME/config.json)"
                    + (provider == Provider.OPENAI
                            ? "; a local OpenAI-compatible server needs no key when WEFT_MODEL_BASE_URL is set"
                            : ""));
        }
        return new ModelConfig(provider, name, baseUrl, apiKey, timeout);
    }

    private static boolean sameProvider(ModelSettings layer, Provider provider) {
        return layer.model()
                .map(m -> {
                    int colon = m.indexOf(':');
                    String id = colon < 0 ? m : m.substring(0, colon);
                    return id.equalsIgnoreCase(provider.id());
                })
                .orElse(true);
    }

    /** {@code provider:model}; a bare {@code offline} is allowed. */
    private static String[] parse(String text, String source) {
        String value = text.trim();
        if (value.equalsIgnoreCase(Provider.OFFLINE.id())) {
            return new String[] {Provider.OFFLINE.id(), OFFLINE_NAME};
        }
        int colon = value.indexOf(':');
        if (colon <= 0 || colon == value.length() - 1) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    source + " '" + text + "' must be provider:model, e.g. openai:gpt-4o-mini,"
                            + " anthropic:claude-sonnet-4-5 or offline");
        }
        return new String[] {value.substring(0, colon), value.substring(colon + 1)};
    }

    private static void checkUrl(String url) {
        try {
            URI uri = new URI(url);
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                throw new URISyntaxException(url, "expected an http or https URL with a host");
            }
        } catch (URISyntaxException e) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "base URL '" + url + "' is not valid: " + e.getReason());
        }
    }

    @Override
    public String toString() {
        return "ModelConfig[" + label() + baseUrl.map(u -> " at " + u).orElse("")
                + (apiKey.isPresent() ? ", key set" : ", no key") + ", timeout " + timeout.toMillis() + " ms]";
    }
}
