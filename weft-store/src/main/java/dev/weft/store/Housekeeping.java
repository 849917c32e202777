package dev.weft.store;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.jdbc.JdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.PostgreSqlJdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.SqliteJdbcCustomization;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import dev.weft.core.spi.RunStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

/**
 * Prunes, on a schedule, the rows that grow with traffic and are kept only for a while: the
 * idempotency results of finished runs (built in), and whatever {@link Sweep}s the modules that own
 * such rows add (the server's done webhook deliveries, …). Runs, steps and events — what users list —
 * are never among them. The schedule is a db-scheduler recurring task in the store's database ({@code
 * weft_scheduled_tasks}), so of several servers on one database one prunes each period. Thread-safe.
 */
public final class Housekeeping {
    /** The recurring task's name in {@code weft_scheduled_tasks}. */
    public static final String TASK_NAME = "weft-housekeeping";

    static final String TABLE = "weft_scheduled_tasks";

    /** How long the idempotency results of a finished run are kept, unless told otherwise. */
    public static final Duration DEFAULT_IDEMPOTENCY_RETENTION = Duration.ofDays(7);

    /** How often it prunes, unless told otherwise. */
    public static final Duration DEFAULT_EVERY = Duration.ofHours(1);

    /**
     * One kind of row pruned: {@code prune} deletes those older than the cutoff it is given (now less
     * {@code retention}) and returns how many it deleted.
     */
    public record Sweep(String name, Duration retention, ToIntFunction<Instant> prune) {
        public Sweep {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(prune, "prune");
            Objects.requireNonNull(retention, "retention");
            if (retention.isNegative() || retention.isZero()) {
                throw new IllegalArgumentException("the retention of " + name + " must be positive, was " + retention);
            }
        }
    }

    private final AppDatabase db;
    private final List<Sweep> sweeps;
    private final Clock clock;
    private final Duration every;
    private final Consumer<String> log;
    private final RecurringTask<Void> task;

    private Housekeeping(Builder builder, List<Sweep> sweeps) {
        this.db = AppDatabase.of(builder.store);
        this.sweeps = List.copyOf(sweeps);
        this.clock = builder.clock;
        this.every = builder.every;
        this.log = builder.log;
        this.task = Tasks.recurring(builder.taskName, FixedDelay.of(every)).execute((instance, context) -> runOnce());
    }

    /** Housekeeping of {@code store} (a SQLite or PostgreSQL store), with its idempotency results pruned. */
    public static Builder builder(RunStore store) {
        return new Builder(store);
    }

    /** The kinds of row it prunes, in the order it prunes them. */
    public List<Sweep> sweeps() {
        return sweeps;
    }

    /**
     * Prunes every kind of row once, now (by its clock); a kind that fails is reported and the others
     * are pruned all the same.
     *
     * @return how many rows of each kind were deleted, by name (-1 for one that failed)
     */
    public Map<String, Integer> runOnce() {
        Instant now = clock.instant();
        Map<String, Integer> deleted = new LinkedHashMap<>();
        for (Sweep sweep : sweeps) {
            try {
                deleted.put(sweep.name(), sweep.prune().applyAsInt(now.minus(sweep.retention())));
            } catch (RuntimeException e) {
                deleted.put(sweep.name(), -1);
                log.accept("housekeeping: pruning " + sweep.name() + " failed: " + e.getMessage());
            }
        }
        if (deleted.values().stream().anyMatch(n -> n != 0)) {
            log.accept("housekeeping: pruned " + deleted);
        }
        return deleted;
    }

    /** The recurring task, for a scheduler of its own (tests drive one by hand). */
    public RecurringTask<Void> task() {
        return task;
    }

    /** db-scheduler's dialect of the store's database. */
    public JdbcCustomization jdbcCustomization() {
        return db.dialect() == AppDatabase.Dialect.SQLITE
                ? new SqliteJdbcCustomization()
                : new PostgreSqlJdbcCustomization(false, true);
    }

    /** The table the schedule is kept in. */
    public static String tableName() {
        return TABLE;
    }

    /**
     * Starts pruning every {@code every} (the first time at once, unless another process on the
     * database did within the period); stop it with {@link Scheduler#stop()}.
     */
    public Scheduler start(String name) {
        Scheduler scheduler = Scheduler.create(db.dataSource())
                .startTasks(List.of(task))
                .tableName(TABLE)
                .jdbcCustomization(jdbcCustomization())
                .schedulerName(new SchedulerName.Fixed(name))
                .pollingInterval(every.compareTo(Duration.ofMinutes(1)) < 0 ? every : Duration.ofMinutes(1))
                .heartbeatInterval(Duration.ofSeconds(30))
                .threads(1)
                .shutdownMaxWait(Duration.ofSeconds(2))
                .build();
        scheduler.start();
        return scheduler;
    }

    /** Builds a {@link Housekeeping}; every setter rejects a bad value at once. */
    public static final class Builder {
        private final RunStore store;
        private final List<Sweep> sweeps = new ArrayList<>();
        private Duration idempotencyRetention = DEFAULT_IDEMPOTENCY_RETENTION;
        private Clock clock = Clock.systemUTC();
        private Duration every = DEFAULT_EVERY;
        private Consumer<String> log = line -> {};
        private String taskName = TASK_NAME;

        private Builder(RunStore store) {
            this.store = Objects.requireNonNull(store, "store");
            AppDatabase.of(store);
        }

        /** How long the idempotency results of a finished run are kept (default 7 days). */
        public Builder idempotencyRetention(Duration retention) {
            this.idempotencyRetention = positive(retention, "idempotency retention");
            return this;
        }

        /** Another kind of row to prune. */
        public Builder sweep(Sweep sweep) {
            Objects.requireNonNull(sweep, "sweep");
            if (sweep.name().equals("idempotency")
                    || sweeps.stream().anyMatch(s -> s.name().equals(sweep.name()))) {
                throw new IllegalArgumentException("a sweep named '" + sweep.name() + "' is already there");
            }
            sweeps.add(sweep);
            return this;
        }

        /**
         * The recurring task's name (default {@link #TASK_NAME}): housekeepings with different sweeps
         * need different names, for of the processes sharing one name only one runs each period, with its
         * own sweeps.
         */
        public Builder taskName(String taskName) {
            Objects.requireNonNull(taskName, "taskName");
            if (taskName.isBlank()) {
                throw new IllegalArgumentException("the housekeeping task's name must not be blank");
            }
            this.taskName = taskName;
            return this;
        }

        /** How often to prune (default 1 hour). */
        public Builder every(Duration every) {
            this.every = positive(every, "housekeeping period");
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Where it says what it pruned, and what failed. */
        public Builder log(Consumer<String> log) {
            this.log = Objects.requireNonNull(log, "log");
            return this;
        }

        private static Duration positive(Duration duration, String what) {
            Objects.requireNonNull(duration, what);
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException(what + " must be positive, was " + duration);
            }
            return duration;
        }

        public Housekeeping build() {
            List<Sweep> all = new ArrayList<>();
            all.add(new Sweep("idempotency", idempotencyRetention, store::pruneIdempotency));
            all.addAll(sweeps);
            return new Housekeeping(this, all);
        }
    }
}
