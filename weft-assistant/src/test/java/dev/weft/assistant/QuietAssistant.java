package dev.weft.assistant;

import dev.weft.core.Graph;
import dev.weft.core.Run;
import dev.weft.core.Runner;
import dev.weft.plan.ToolRegistry;
import java.util.List;
import java.util.Optional;

/**
 * An assistant for tests of what surrounds assistants: it owns the runs whose graph id starts with its
 * name and a colon, runs {@code services} in the background, and answers nothing (a turn is a mistake).
 */
record QuietAssistant(String name, List<BackgroundService> services) implements Assistant {
    QuietAssistant {
        services = List.copyOf(services);
    }

    QuietAssistant(String name) {
        this(name, List.of());
    }

    @Override
    public String description() {
        return name;
    }

    @Override
    public Turn converse(Runner runner, Message message) {
        throw new UnsupportedOperationException("a quiet assistant answers nothing");
    }

    @Override
    public Turn approve(Runner runner, String user, String runId, List<String> steps) {
        throw new UnsupportedOperationException("a quiet assistant answers nothing");
    }

    @Override
    public Turn reject(Runner runner, String user, String runId) {
        throw new UnsupportedOperationException("a quiet assistant answers nothing");
    }

    @Override
    public Turn answer(Runner runner, String user, String runId, String text) {
        throw new UnsupportedOperationException("a quiet assistant answers nothing");
    }

    @Override
    public ToolRegistry tools() {
        return ToolRegistry.of();
    }

    @Override
    public boolean owns(Run run) {
        return run.graphId().startsWith(name + ":");
    }

    @Override
    public Optional<Graph> graphOf(Run run) {
        return Optional.empty();
    }
}
