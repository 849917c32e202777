package dev.weft.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.Run;
import dev.weft.core.RunStatus;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import dev.weft.core.WeftException;
import dev.weft.core.spi.Checkpoint;
import dev.weft.core.spi.RunStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link RunStore} in memory: fast, and gone with the process. Thread-safe: each run's records are
 * guarded by that run's own lock.
 */
public final class InMemoryRunStore implements RunStore {
    private final Map<String, Entry> runs = new ConcurrentHashMap<>();
    private final Map<String, JsonNode> idempotent = new ConcurrentHashMap<>();
    private final boolean keepAllCheckpoints;

    private InMemoryRunStore(boolean keepAllCheckpoints) {
        this.keepAllCheckpoints = keepAllCheckpoints;
    }

    /** A store that keeps every checkpoint (for forks and time travel). */
    public static InMemoryRunStore create() {
        return new InMemoryRunStore(true);
    }

    /** A store that keeps only each run's latest checkpoint, for long-lived processes. */
    public static InMemoryRunStore latestCheckpointOnly() {
        return new InMemoryRunStore(false);
    }

    private static final class Entry {
        Run run;
        boolean cancelRequested;
        String owner;
        Instant leaseUntil;
        final List<Step> steps = new ArrayList<>();
        final List<Event> events = new ArrayList<>();
        final List<Checkpoint> checkpoints = new ArrayList<>();

        Entry(Run run) {
            this.run = run;
        }
    }

    private Entry entry(String runId) {
        Entry entry = runs.get(runId);
        if (entry == null) {
            throw new dev.weft.core.NotFoundException("no run '" + runId + "' in this store");
        }
        return entry;
    }

    @Override
    public void createRun(Run run) {
        if (runs.putIfAbsent(run.id(), new Entry(run)) != null) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "a run with id '" + run.id() + "' already exists");
        }
    }

    /** As every store: a run whose first changes cannot apply (an end it is not in) is not created. */
    @Override
    public void createRun(Run run, Lease lease, List<Change> changes) {
        for (Change change : changes) {
            if (change instanceof Change.UpdateRun update
                    && update.run().id().equals(run.id())
                    && !update.expected().contains(run.status())) {
                throw new dev.weft.core.RunStateException("run '" + run.id() + "' is " + run.status() + ", not "
                        + update.expected() + "; it was not created");
            }
        }
        RunStore.super.createRun(run, lease, changes);
    }

    @Override
    public Optional<Run> findRun(String runId) {
        Entry entry = runs.get(runId);
        if (entry == null) {
            return Optional.empty();
        }
        synchronized (entry) {
            return Optional.of(entry.run);
        }
    }

    @Override
    public boolean updateRun(Run run, Set<RunStatus> expected) {
        Entry entry = entry(run.id());
        synchronized (entry) {
            if (!expected.contains(entry.run.status())) {
                return false;
            }
            entry.run = run;
            return true;
        }
    }

    @Override
    public RunPage listRuns(RunQuery query) {
        List<Run> result = new ArrayList<>();
        for (Entry entry : runs.values()) {
            synchronized (entry) {
                if (query.matches(entry.run)) {
                    result.add(entry.run);
                }
            }
        }
        result.sort(Comparator.comparing(Run::createdAt).reversed().thenComparing(Run::id));
        int from = Math.min(query.offset(), result.size());
        int to = (int) Math.min((long) from + query.limit(), result.size());
        return new RunPage(result.subList(from, to), result.size());
    }

    @Override
    public void insertStep(Step step) {
        Entry entry = entry(step.runId());
        synchronized (entry) {
            int index = step.order() - 1;
            while (entry.steps.size() <= index) {
                entry.steps.add(null);
            }
            if (entry.steps.get(index) != null) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "step " + step.key() + " already exists");
            }
            entry.steps.set(index, step);
        }
    }

    @Override
    public boolean updateStep(Step step, Set<StepStatus> expected) {
        Entry entry = entry(step.runId());
        synchronized (entry) {
            int index = step.order() - 1;
            Step current = index < entry.steps.size() ? entry.steps.get(index) : null;
            if (current == null || !expected.contains(current.status())) {
                return false;
            }
            entry.steps.set(index, step);
            return true;
        }
    }

    @Override
    public List<Step> steps(String runId) {
        Entry entry = entry(runId);
        synchronized (entry) {
            return entry.steps.stream().filter(Objects::nonNull).toList();
        }
    }

    @Override
    public void appendEvent(Event event) {
        Entry entry = entry(event.runId());
        synchronized (entry) {
            entry.events.add(event);
        }
    }

    @Override
    public List<Event> events(String runId) {
        Entry entry = entry(runId);
        synchronized (entry) {
            List<Event> copy = new ArrayList<>(entry.events);
            copy.sort(Comparator.comparingLong(Event::sequence));
            return copy;
        }
    }

    @Override
    public void saveCheckpoint(Checkpoint checkpoint) {
        Entry entry = entry(checkpoint.runId());
        synchronized (entry) {
            if (!keepAllCheckpoints) {
                entry.checkpoints.clear();
            }
            entry.checkpoints.add(checkpoint);
        }
    }

    @Override
    public Optional<Checkpoint> latestCheckpoint(String runId) {
        Entry entry = entry(runId);
        synchronized (entry) {
            return entry.checkpoints.isEmpty()
                    ? Optional.empty()
                    : Optional.of(entry.checkpoints.get(entry.checkpoints.size() - 1));
        }
    }

    @Override
    public List<Checkpoint> checkpoints(String runId) {
        Entry entry = entry(runId);
        synchronized (entry) {
            return List.copyOf(entry.checkpoints);
        }
    }

    @Override
    public boolean requestCancel(String runId) {
        Entry entry = runs.get(runId);
        if (entry == null) {
            return false;
        }
        synchronized (entry) {
            if (entry.run.status().isFinished()) {
                return false;
            }
            entry.cancelRequested = true;
            return true;
        }
    }

    @Override
    public boolean apply(String runId, String owner, List<Change> changes) {
        Entry entry = entry(runId);
        synchronized (entry) {
            if (entry.owner != null && !entry.owner.equals(owner)) {
                throw new dev.weft.core.LeaseLostException(runId, entry.owner);
            }
            // A run update that cannot apply fails the batch before any of it is applied.
            Change.UpdateRun runUpdate = null;
            for (Change change : changes) {
                if (change instanceof Change.UpdateRun update) {
                    if (!update.expected().contains(entry.run.status())) {
                        throw new dev.weft.core.RunStateException("run '" + runId + "' is " + entry.run.status()
                                + ", not " + update.expected() + "; its changes were not applied");
                    }
                    runUpdate = update;
                }
            }
            for (Change change : changes) {
                switch (change) {
                    case Change.InsertStep insert -> {
                        int index = insert.step().order() - 1;
                        if (index >= entry.steps.size() || entry.steps.get(index) == null) {
                            insertStep(insert.step());
                        }
                    }
                    case Change.UpdateStep update -> updateStep(update.step(), update.expected());
                    case Change.AppendEvent append -> entry.events.add(append.event());
                    case Change.SaveCheckpoint save -> saveCheckpoint(save.checkpoint());
                    case Change.UpdateRun update -> {
                        // applied after the rest, below
                    }
                }
            }
            if (runUpdate != null) {
                entry.run = runUpdate.run();
            }
            return entry.cancelRequested;
        }
    }

    @Override
    public boolean claim(String runId, Lease lease, Instant now) {
        Entry entry = entry(runId);
        synchronized (entry) {
            if (entry.run.status() != dev.weft.core.RunStatus.RUNNING
                    || entry.owner == null
                    || entry.owner.equals(lease.owner())
                    || entry.leaseUntil.isBefore(now)) {
                entry.owner = lease.owner();
                entry.leaseUntil = lease.until();
                return true;
            }
            return false;
        }
    }

    @Override
    public Optional<Lease> lease(String runId) {
        Entry entry = runs.get(runId);
        if (entry == null) {
            return Optional.empty();
        }
        synchronized (entry) {
            return entry.owner == null
                    ? Optional.empty()
                    : Optional.of(new Lease(entry.owner, entry.leaseUntil == null ? Instant.EPOCH : entry.leaseUntil));
        }
    }

    @Override
    public boolean takeOver(String runId, String deadOwner, Lease lease) {
        Entry entry = entry(runId);
        synchronized (entry) {
            if (entry.run.status() != dev.weft.core.RunStatus.RUNNING || !deadOwner.equals(entry.owner)) {
                return false;
            }
            entry.owner = lease.owner();
            entry.leaseUntil = lease.until();
            return true;
        }
    }

    @Override
    public void renew(String owner, Instant until) {
        for (Entry entry : runs.values()) {
            synchronized (entry) {
                if (owner.equals(entry.owner) && !entry.run.status().isFinished()) {
                    entry.leaseUntil = until;
                }
            }
        }
    }

    @Override
    public List<Run> recoverable(Instant now) {
        List<Run> result = new ArrayList<>();
        for (Entry entry : runs.values()) {
            synchronized (entry) {
                if (entry.run.status() == dev.weft.core.RunStatus.RUNNING
                        && (entry.leaseUntil == null || entry.leaseUntil.isBefore(now))) {
                    result.add(entry.run);
                }
            }
        }
        result.sort(Comparator.comparing(Run::createdAt));
        return result;
    }

    @Override
    public Optional<JsonNode> idempotentResult(String key) {
        return Optional.ofNullable(idempotent.get(key));
    }

    @Override
    public JsonNode saveIdempotentResult(String key, JsonNode result) {
        JsonNode previous = idempotent.putIfAbsent(key, result);
        return previous == null ? result : previous;
    }

    @Override
    public int pruneRuns(Instant cutoff) {
        int pruned = 0;
        for (var it = runs.entrySet().iterator(); it.hasNext(); ) {
            Entry entry = it.next().getValue();
            synchronized (entry) {
                if (entry.run.status().isFinished()
                        && entry.run.endedAt().map(end -> end.isBefore(cutoff)).orElse(false)) {
                    it.remove();
                    pruned++;
                }
            }
        }
        return pruned;
    }

    @Override
    public boolean isCancelRequested(String runId) {
        Entry entry = runs.get(runId);
        if (entry == null) {
            return false;
        }
        synchronized (entry) {
            return entry.cancelRequested;
        }
    }
}
