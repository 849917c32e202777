package dev.weft.memo;

import dev.weft.core.spi.RunStore;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.spi.PlanExecutorProvider;
import dev.weft.workflow.A2aAgentsSource;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Lets a process that did not start a Memo run (the {@code weft} command, a server) continue it. */
public final class MemoExecutorProvider implements PlanExecutorProvider {
    private static final System.Logger LOG = System.getLogger(MemoExecutorProvider.class.getName());

    @Override
    public String name() {
        return Memo.EXECUTOR;
    }

    @Override
    public PlanExecutor executor(RunStore store) {
        // A run that asks a remote agent continues with the same agents as the process that started it.
        Map<String, String> env = System.getenv();
        return Memo.open(store)
                .withAgents(
                        A2aAgentsSource.of(home(env), env, line -> LOG.log(System.Logger.Level.WARNING, line))
                                .current(),
                        name -> Optional.ofNullable(env.get(name)))
                .executor();
    }

    private static Path home(Map<String, String> env) {
        String home = env.get("WEFT_HOME");
        return home != null && !home.isBlank() ? Path.of(home) : Path.of(System.getProperty("user.home"), ".weft");
    }
}
