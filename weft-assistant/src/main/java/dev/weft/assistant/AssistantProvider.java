package dev.weft.assistant;

import java.util.ServiceLoader;

/**
 * Makes an assistant for a process: a module registers one through {@link ServiceLoader} ({@code
 * META-INF/services/dev.weft.assistant.AssistantProvider}).
 */
public interface AssistantProvider {
    /** The name of the assistant this provider makes ({@link Assistant#name()}). */
    String name();

    /**
     * The assistant over {@code environment}'s store (its tables made or brought up to date), planning
     * with its model when one is configured.
     *
     * @throws dev.weft.core.WeftException when the assistant cannot start (its graph does not compile,
     *     its store cannot be used): a process must not serve an assistant that is broken
     */
    Assistant open(AssistantEnvironment environment);
}
