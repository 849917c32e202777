package dev.weft.memo;

import dev.weft.core.spi.RunStore;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.spi.PlanExecutorProvider;

/** Lets a process that did not start a Memo run (the {@code weft} command, a server) continue it. */
public final class MemoExecutorProvider implements PlanExecutorProvider {
    @Override
    public String name() {
        return Memo.EXECUTOR;
    }

    @Override
    public PlanExecutor executor(RunStore store) {
        return Memo.open(store).executor();
    }
}
