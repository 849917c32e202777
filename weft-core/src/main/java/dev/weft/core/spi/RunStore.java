package dev.weft.core.spi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Event;
import dev.weft.core.Run;
import dev.weft.core.RunStatus;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Where runs, steps, events and checkpoints live. Everything the runner needs to continue a run is
 * here, so a run can be resumed, recovered or cancelled from another process. Implementations are
 * thread-safe; status changes are compare-and-set, so a late or duplicated write can never move a
 * finished run or step back.
 */
public interface RunStore extends AutoCloseable {

    /** One write of a batch given to {@link #apply}. */
    sealed interface Change {
        record InsertStep(Step step) implements Change {}

        /** Replaces the step (same run, same order) if its stored status is one of {@code expected}. */
        record UpdateStep(Step step, Set<StepStatus> expected) implements Change {
            public UpdateStep {
                expected = Set.copyOf(expected);
            }
        }

        record AppendEvent(Event event) implements Change {}

        record SaveCheckpoint(Checkpoint checkpoint) implements Change {}

        /**
         * Replaces the run (its status, output, error, end) if its stored status is one of {@code
         * expected}, after the batch's other changes. If the status is not one of them, the whole
         * batch fails with {@link dev.weft.core.RunStateException} and nothing of it is applied: a
         * run's end is written together with its last steps, or not at all.
         */
        record UpdateRun(Run run, Set<RunStatus> expected) implements Change {
            public UpdateRun {
                expected = Set.copyOf(expected);
            }
        }
    }

    /** Who runs a run, and until when that claim holds unless renewed. */
    record Lease(String owner, Instant until) {
        public Lease {
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(until, "until");
        }
    }

    /** Stores a new run; fails if a run with its id exists. */
    void createRun(Run run);

    /**
     * Creates a {@code RUNNING} run already claimed by {@code lease}'s owner, as {@link #createRun}
     * then {@link #claim} would; a durable store does both in one transaction.
     */
    default void createRun(Run run, Lease lease) {
        createRun(run, lease, List.of());
    }

    /**
     * Creates a {@code RUNNING} run already claimed by {@code lease}'s owner and applies {@code
     * changes} to it (its first events, steps and checkpoint), as {@link #createRun}, {@link #claim}
     * and {@link #apply} would; a durable store does it all in one transaction, so a run exists only
     * with its first checkpoint.
     */
    default void createRun(Run run, Lease lease, List<Change> changes) {
        createRun(run);
        if (!claim(run.id(), lease, run.createdAt())) {
            throw new dev.weft.core.RunStateException("run '" + run.id() + "' was claimed as it was created");
        }
        if (!changes.isEmpty()) {
            apply(run.id(), lease.owner(), changes);
        }
    }

    Optional<Run> findRun(String runId);

    /**
     * Replaces the stored run with {@code run} if the stored one's status is one of {@code expected}.
     *
     * @return whether it was replaced
     */
    boolean updateRun(Run run, Set<RunStatus> expected);

    /**
     * Which runs to list: optionally only those in {@code status} and only those of {@code user}, newest
     * first (then by id), skipping {@code offset} of them and returning at most {@code limit}.
     */
    record RunQuery(Optional<RunStatus> status, Optional<String> user, int offset, int limit) {
        public RunQuery {
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(user, "user");
            if (offset < 0) {
                throw new IllegalArgumentException("offset must not be negative, was " + offset);
            }
            if (limit < 1) {
                throw new IllegalArgumentException("limit must be positive, was " + limit);
            }
        }

        /** Every run in {@code status} (any when empty) of {@code user} (anyone's when empty). */
        public static RunQuery all(Optional<RunStatus> status, Optional<String> user) {
            return new RunQuery(status, user, 0, Integer.MAX_VALUE);
        }

        /** The same filter, the page of {@code limit} runs after the first {@code offset}. */
        public RunQuery page(int offset, int limit) {
            return new RunQuery(status, user, offset, limit);
        }

        /** Whether {@code run} passes the filter (not the page). */
        public boolean matches(Run run) {
            return (status.isEmpty() || status.get() == run.status()) && (user.isEmpty() || user.equals(run.user()));
        }
    }

    /** One page of a {@link RunQuery}: its runs, and how many runs pass the filter in all. */
    record RunPage(List<Run> runs, long total) {
        public RunPage {
            runs = List.copyOf(runs);
            if (total < runs.size()) {
                throw new IllegalArgumentException("total " + total + " is less than the page's " + runs.size());
            }
        }
    }

    /** Runs, newest first, optionally only those in {@code status}. */
    default List<Run> listRuns(Optional<RunStatus> status) {
        return listRuns(status, Optional.empty());
    }

    /** Runs, newest first, optionally only those in {@code status}, and only those of {@code user}. */
    default List<Run> listRuns(Optional<RunStatus> status, Optional<String> user) {
        return listRuns(RunQuery.all(status, user)).runs();
    }

    /**
     * The page of runs {@code query} asks for, filtered and paged by the store itself (a durable store
     * in its SQL), with the number of runs that pass the filter.
     */
    RunPage listRuns(RunQuery query);

    void insertStep(Step step);

    /**
     * Replaces the stored step (same run, same order) if its status is one of {@code expected}.
     *
     * @return whether it was replaced
     */
    boolean updateStep(Step step, Set<StepStatus> expected);

    /** The run's steps in order. */
    List<Step> steps(String runId);

    void appendEvent(Event event);

    /** The run's events in sequence order. */
    List<Event> events(String runId);

    void saveCheckpoint(Checkpoint checkpoint);

    Optional<Checkpoint> latestCheckpoint(String runId);

    /** Every checkpoint of the run, oldest first. */
    List<Checkpoint> checkpoints(String runId);

    /**
     * Applies {@code changes} to run {@code runId} in order, all or nothing (a durable store uses one
     * transaction), and reports whether the run has been asked to stop — so the runner learns of a
     * cancellation with the same round trip that commits its work. Step updates whose expected status
     * does not match are skipped, as {@link #updateStep} would; a step that already exists is not
     * inserted again.
     *
     * @param owner the lease owner writing: if another owner holds the run's lease (the writer's
     *     process was taken for dead and the run recovered elsewhere), nothing is applied
     * @throws dev.weft.core.LeaseLostException if another owner holds the run
     */
    boolean apply(String runId, String owner, List<Change> changes);

    /**
     * Asks a running run to stop before its next node.
     *
     * @return false if the run does not exist or has already finished
     */
    boolean requestCancel(String runId);

    boolean isCancelRequested(String runId);

    /**
     * Claims run {@code runId} for {@code lease.owner()}: succeeds when the run is not {@code RUNNING}
     * (a waiting run belongs to whoever resumes it), is unclaimed, is already the owner's, or its lease
     * expired before {@code now}.
     */
    boolean claim(String runId, Lease lease, Instant now);

    /** The lease on run {@code runId}, if one was ever taken. */
    Optional<Lease> lease(String runId);

    /**
     * Takes the lease of a {@code RUNNING} run from {@code deadOwner}, a holder known to be dead,
     * whatever its lease's time: succeeds only if {@code deadOwner} still holds it, so of several
     * processes taking over at once, one wins.
     */
    boolean takeOver(String runId, String deadOwner, Lease lease);

    /** Extends the lease of every unfinished run {@code owner} holds. */
    void renew(String owner, Instant until);

    /** Runs left {@code RUNNING} whose lease expired before {@code now}: their process died. */
    List<Run> recoverable(Instant now);

    /** The stored result of the call made with idempotency key {@code key}, if it completed. */
    Optional<JsonNode> idempotentResult(String key);

    /**
     * What a process reads before it runs a step of run {@code runId} that was queued to it: the run,
     * whether it was asked to stop, and the result stored under {@code key} (the step's outcome, if
     * the step was run before). A database store reads them in one round trip.
     */
    default QueuedStepState queuedStepState(String runId, String key) {
        return new QueuedStepState(findRun(runId), isCancelRequested(runId), idempotentResult(key));
    }

    /**
     * The run of a queued step (empty if it is not in the store), whether it was asked to stop, and
     * the step's stored outcome, if any.
     */
    record QueuedStepState(Optional<Run> run, boolean cancelRequested, Optional<JsonNode> stored) {}

    /**
     * Stores the result of the call made with {@code key}, unless one is stored.
     *
     * @return the stored result: {@code result}, or the one stored first
     */
    JsonNode saveIdempotentResult(String key, JsonNode result);

    /** Deletes finished runs that ended before {@code cutoff}, with their steps, events and checkpoints. */
    int pruneRuns(Instant cutoff);

    /**
     * Deletes the idempotency results stored before {@code cutoff} of runs that are finished or gone
     * (a run's results are keyed {@code <runId>/…}, a queued step's outcome {@code weft.queued:<runId>/…}):
     * they exist to dedupe a step's calls and outcome while its run can still run them again. A result
     * of a run still running or waiting is kept, whatever its age. The in-memory store keeps its own,
     * which live as long as it does.
     *
     * @return how many were deleted
     */
    default int pruneIdempotency(Instant cutoff) {
        return 0;
    }

    /** Releases connections and files; the in-memory store has nothing to release. */
    @Override
    default void close() {}
}
