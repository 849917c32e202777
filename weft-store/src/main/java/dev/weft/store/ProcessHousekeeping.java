package dev.weft.store;

import com.github.kagkarlsson.scheduler.Scheduler;
import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.store.spi.HousekeepingSweeps;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.IdentityHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The housekeeping every long-running process takes part in, whichever it is ({@code weft worker},
 * {@code weft channels telegram}, a channel inside {@code weft serve}): the idempotency results of
 * finished runs and every module's {@link HousekeepingSweeps} (the channels' inbox and outbox, …),
 * pruned on a db-scheduler task of its own name, so that of all the processes on one database one
 * prunes each period, and rows are pruned when {@code weft serve} is not running at all. The parts of a
 * process that each join it share one schedule per store. Thread-safe.
 */
public final class ProcessHousekeeping {
    /** The recurring task's name in {@code weft_scheduled_tasks}: not {@code weft serve}'s, whose sweeps differ. */
    public static final String TASK_NAME = "weft-housekeeping-processes";

    private static final Map<RunStore, Joined> JOINED = new IdentityHashMap<>();

    private ProcessHousekeeping() {}

    /** A process's part in the housekeeping: closing it leaves (the last part to leave stops the schedule). */
    @FunctionalInterface
    public interface Part extends AutoCloseable {
        @Override
        void close();
    }

    private static final class Joined {
        final Scheduler scheduler;
        int parts;

        Joined(Scheduler scheduler) {
            this.scheduler = scheduler;
        }
    }

    /**
     * Joins the housekeeping of {@code store} as part of the process named {@code process}: the first
     * part starts the schedule (pruning at once unless another process did within the period), set by
     * {@code env}: {@code WEFT_HOUSEKEEPING_EVERY} (default 1 hour; {@code off} or {@code 0s}: never) and
     * {@code WEFT_RETAIN_IDEMPOTENCY} (default 7 days), and each module's own retention. A store with no
     * database (the in-memory one) has nothing to prune: its part does nothing.
     *
     * @throws WeftException {@code E_BAD_INPUT} for a setting in {@code env} that is not a duration
     */
    public static Part join(RunStore store, Map<String, String> env, String process, Consumer<String> log) {
        Duration every = duration(env, "WEFT_HOUSEKEEPING_EVERY", Housekeeping.DEFAULT_EVERY, true);
        Duration idempotency =
                duration(env, "WEFT_RETAIN_IDEMPOTENCY", Housekeeping.DEFAULT_IDEMPOTENCY_RETENTION, false);
        if (every.isZero() || !(store instanceof JdbcRunStore)) {
            return () -> {};
        }
        synchronized (JOINED) {
            Joined joined = JOINED.get(store);
            if (joined == null) {
                Housekeeping.Builder builder = Housekeeping.builder(store)
                        .taskName(TASK_NAME)
                        .every(every)
                        .idempotencyRetention(idempotency)
                        .log(log);
                HousekeepingSweeps.all(store, env, ProcessHousekeeping.class.getClassLoader())
                        .forEach(builder::sweep);
                joined = new Joined(builder.build().start(process));
                JOINED.put(store, joined);
            }
            joined.parts++;
        }
        return new Part() {
            private boolean left;

            @Override
            public void close() {
                synchronized (JOINED) {
                    if (left) {
                        return;
                    }
                    left = true;
                    Joined joined = JOINED.get(store);
                    if (joined != null && --joined.parts == 0) {
                        JOINED.remove(store);
                        joined.scheduler.stop();
                    }
                }
            }
        };
    }

    /**
     * The duration {@code env} sets under {@code name}, else {@code otherwise}: {@code 30d}, {@code 12h},
     * {@code 45m}, {@code 10s} or ISO-8601 ({@code P7D}); with {@code zeroTurnsOff}, {@code off} or a zero
     * is {@link Duration#ZERO}.
     *
     * @throws WeftException {@code E_BAD_INPUT} for anything else, naming the variable
     */
    public static Duration duration(Map<String, String> env, String name, Duration otherwise, boolean zeroTurnsOff) {
        String text = env.getOrDefault(name, "").strip();
        if (text.isEmpty()) {
            return otherwise;
        }
        String t = text.toLowerCase(Locale.ROOT);
        if (zeroTurnsOff && t.equals("off")) {
            return Duration.ZERO;
        }
        Optional<Duration> parsed = Optional.empty();
        try {
            if (t.startsWith("p")) {
                parsed = Optional.of(Duration.parse(t.toUpperCase(Locale.ROOT)));
            } else if (t.matches("\\d+[dhms]")) {
                long n = Long.parseLong(t.substring(0, t.length() - 1));
                parsed = Optional.of(
                        switch (t.charAt(t.length() - 1)) {
                            case 'd' -> Duration.ofDays(n);
                            case 'h' -> Duration.ofHours(n);
                            case 'm' -> Duration.ofMinutes(n);
                            default -> Duration.ofSeconds(n);
                        });
            }
        } catch (DateTimeParseException | NumberFormatException | ArithmeticException e) {
            // said below
        }
        if (parsed.isPresent()
                && !parsed.get().isNegative()
                && (zeroTurnsOff || !parsed.get().isZero())) {
            return parsed.get();
        }
        throw new WeftException(
                ErrorCode.E_BAD_INPUT,
                name + "=" + text + ": not a " + (zeroTurnsOff ? "duration (0s or off: never)" : "positive duration")
                        + "; use 30d, 12h, 45m, 10s or ISO-8601 such as P7D");
    }
}
