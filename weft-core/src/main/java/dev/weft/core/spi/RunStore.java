package dev.weft.core.spi;

import dev.weft.core.Event;
import dev.weft.core.Run;
import dev.weft.core.RunStatus;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where runs, steps, events and checkpoints live. Everything the runner needs to resume a run is
 * here, so a run can continue in another process. Implementations are thread-safe; status changes
 * are compare-and-set, so a late or duplicated write can never move a finished run or step back.
 */
public interface RunStore {
    /** Stores a new run; fails if a run with its id exists. */
    void createRun(Run run);

    Optional<Run> findRun(String runId);

    /**
     * Replaces the stored run with {@code run} if the stored one's status is one of {@code expected}.
     *
     * @return whether it was replaced
     */
    boolean updateRun(Run run, Set<RunStatus> expected);

    /** Runs, newest first, optionally only those in {@code status}. */
    List<Run> listRuns(Optional<RunStatus> status);

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
     * Asks a running run to stop before its next node.
     *
     * @return false if the run does not exist or has already finished
     */
    boolean requestCancel(String runId);

    boolean isCancelRequested(String runId);
}
