package dev.weft.memo;

import com.github.kagkarlsson.scheduler.Scheduler;
import dev.weft.assistant.Assistant;
import dev.weft.assistant.Message;
import dev.weft.assistant.Notices;
import dev.weft.assistant.Turn;
import dev.weft.core.Graph;
import dev.weft.core.Run;
import dev.weft.core.Runner;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.ToolRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Memo as an {@link Assistant}: what the command line, the server and MCP reach it through. Thread-safe. */
public final class MemoAssistant implements Assistant {
    private final Memo memo;

    public MemoAssistant(Memo memo) {
        this.memo = Objects.requireNonNull(memo, "memo");
    }

    /** The Memo behind this assistant, for what only Memo has (reminders, mail, the calendar). */
    public Memo memo() {
        return memo;
    }

    @Override
    public String name() {
        return Memo.EXECUTOR;
    }

    @Override
    public String description() {
        return "Memo: a personal assistant for calendar, reminders, tasks, lists, email and notes, in English and"
                + " Hebrew";
    }

    @Override
    public Turn converse(Runner runner, Message message) {
        Memo.Request request = new Memo.Request(message.user(), message.text(), message.zone(), message.mode());
        if (message.runId().isPresent()) {
            request = request.withRunId(message.runId().get());
        }
        return turn(memo.converse(runner, request, memo.waiting(runner, message.user())));
    }

    @Override
    public Turn approve(Runner runner, String user, String runId, List<String> steps) {
        return turn(memo.approve(runner, runId, user, steps));
    }

    @Override
    public Turn reject(Runner runner, String user, String runId) {
        return turn(memo.reject(runner, runId, user));
    }

    @Override
    public Turn answer(Runner runner, String user, String runId, String text) {
        return turn(memo.answer(runner, runId, user, text));
    }

    @Override
    public Optional<Notices> notices() {
        return Optional.of(new Notices() {
            @Override
            public List<Notices.Notice> recent(String user, int count) {
                return memo.data().notifications().recent(user, count).stream()
                        .map(n -> new Notices.Notice(n.user(), n.id(), memo.notice(n), n.sourceId(), n.firedAt()))
                        .toList();
            }

            @Override
            public void onNotice(Runnable listener) {
                memo.reminders().onFire(notification -> listener.run());
            }

            @Override
            public AutoCloseable start(String processName) {
                Scheduler scheduler = memo.reminders().start(Duration.ofSeconds(1), processName);
                return scheduler::stop;
            }
        });
    }

    @Override
    public ToolRegistry tools() {
        return memo.executor().tools();
    }

    @Override
    public boolean owns(Run run) {
        return PlanExecutor.isPlanRun(run)
                && PlanExecutor.executorName(run).filter(Memo.EXECUTOR::equals).isPresent();
    }

    @Override
    public Optional<Graph> graphOf(Run run) {
        return owns(run) ? memo.executor().graphOf(run) : Optional.empty();
    }

    static Turn turn(Memo.Reply reply) {
        return new Turn(reply.language(), reply.run(), reply.text(), reply.json(), Turn.Usage.NONE);
    }
}
