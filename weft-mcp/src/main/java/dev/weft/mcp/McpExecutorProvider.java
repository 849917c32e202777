package dev.weft.mcp;

import dev.weft.assistant.AssistantEnvironment;
import dev.weft.assistant.Assistants;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.spi.PlanExecutorProvider;
import java.nio.file.Path;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Lets a process that did not make an MCP call's run (the {@code weft} command, a server recovering
 * runs, {@code POST /api/runs/{id}/approve}) continue it: the {@link AssistantTools#EXECUTOR} executor
 * over every assistant on the class path, opened on the run's store (once per store).
 */
public final class McpExecutorProvider implements PlanExecutorProvider {
    private static final Map<RunStore, PlanExecutor> OPENED = new WeakHashMap<>();

    @Override
    public String name() {
        return AssistantTools.EXECUTOR;
    }

    @Override
    public PlanExecutor executor(RunStore store) {
        synchronized (OPENED) {
            return OPENED.computeIfAbsent(
                    store, s -> AssistantTools.executor(Assistants.openAll(AssistantEnvironment.offline(s, home()))));
        }
    }

    private static Path home() {
        String home = System.getenv("WEFT_HOME");
        return home != null && !home.isBlank() ? Path.of(home) : Path.of(System.getProperty("user.home"), ".weft");
    }
}
