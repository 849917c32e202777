package dev.weft.assistant;

import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.llm.Model;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What an assistant is opened with: the store its runs and its data live in, the configured model
 * (none: it works offline, by rules), the time its model calls wait on, and the folder where it may
 * keep files of its own (keys), {@code $WEFT_HOME}, and the process's settings ({@code env}: the
 * environment variables an assistant reads its own configuration from, such as the shop's key).
 */
public record AssistantEnvironment(
        RunStore store, Optional<Model> model, TimeSource time, Path home, Map<String, String> env) {
    public AssistantEnvironment {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(home, "home");
        env = Map.copyOf(env);
    }

    /** The environment of this process ({@link System#getenv()}). */
    public AssistantEnvironment(RunStore store, Optional<Model> model, TimeSource time, Path home) {
        this(store, model, time, home, System.getenv());
    }

    /** This environment with {@code env} as its settings instead. */
    public AssistantEnvironment env(Map<String, String> env) {
        return new AssistantEnvironment(store, model, time, home, env);
    }

    /** Offline, on the system's time, keeping files under {@code home}. */
    public static AssistantEnvironment offline(RunStore store, Path home) {
        return new AssistantEnvironment(store, Optional.empty(), TimeSource.system(), home);
    }
}
