package dev.weft.llm;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The models a program uses: the configured one, and any other named as {@code provider:model} (a
 * workflow node's {@code model} override), each resolved from the same flags, environment and config
 * file, built once and shared. Offline models answer with the rules given here. Resolution happens
 * when a model is first asked for, so a program that never calls a model never fails on its
 * configuration. Thread-safe.
 */
public final class Models {
    private static final String DEFAULT = "";

    private final ModelSettings flags;
    private final Map<String, String> environment;
    private final OfflineModel offline;
    private final UnaryOperator<Model> customize;
    private final Map<String, Model> built = new ConcurrentHashMap<>();

    private Models(
            ModelSettings flags,
            Map<String, String> environment,
            OfflineModel offline,
            UnaryOperator<Model> customize) {
        this.flags = flags;
        this.environment = Map.copyOf(environment);
        this.offline = offline;
        this.customize = customize;
    }

    /** Models configured by {@code flags}, then {@code environment}, then {@code $WEFT_HOME/config.json}. */
    public static Models resolve(ModelSettings flags, Map<String, String> environment) {
        return new Models(
                Objects.requireNonNull(flags, "flags"),
                Objects.requireNonNull(environment, "environment"),
                OfflineModel.empty(),
                UnaryOperator.identity());
    }

    /** Models configured by the process environment and {@code $WEFT_HOME/config.json}. */
    public static Models fromEnvironment() {
        return resolve(ModelSettings.none("flags"), System.getenv());
    }

    /** The same, with the offline model answering by {@code offline}'s rules. */
    public Models withOffline(OfflineModel offline) {
        return new Models(flags, environment, Objects.requireNonNull(offline, "offline"), customize);
    }

    /** The same, with every model passed through {@code customize} once built (a retry policy, a jitter source). */
    public Models withCustomization(UnaryOperator<Model> customize) {
        return new Models(flags, environment, offline, Objects.requireNonNull(customize, "customize"));
    }

    /** The configuration of the default model. */
    public ModelConfig config() {
        return ModelConfig.resolve(flags, environment);
    }

    /**
     * The configured model.
     *
     * @throws dev.weft.core.WeftException {@code E_BAD_INPUT} for malformed settings
     * @throws ModelUnavailableException when its provider needs a key and none is set
     */
    public Model defaultModel() {
        return built.computeIfAbsent(DEFAULT, k -> customize.apply(Model.create(config(), offline)));
    }

    /**
     * The model {@code providerModel} names (such as {@code anthropic:claude-sonnet-4-5}), with the
     * base URL and key the settings give for its provider.
     *
     * @throws dev.weft.core.WeftException {@code E_BAD_INPUT} for malformed settings
     * @throws ModelUnavailableException when its provider needs a key and none is set
     */
    public Model model(String providerModel) {
        Objects.requireNonNull(providerModel, "providerModel");
        return built.computeIfAbsent(
                providerModel,
                k -> customize.apply(Model.create(ModelConfig.resolve(providerModel, flags, environment), offline)));
    }
}
