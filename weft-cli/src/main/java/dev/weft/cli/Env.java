package dev.weft.cli;

import java.util.Map;
import java.util.Objects;

/** The environment the commands read ({@code WEFT_DB}, {@code WEFT_HOME}, …); tests give their own. */
final class Env {
    private static volatile Map<String, String> current = System.getenv();

    private Env() {}

    static Map<String, String> get() {
        return current;
    }

    static void use(Map<String, String> env) {
        current = Map.copyOf(Objects.requireNonNull(env, "env"));
    }
}
