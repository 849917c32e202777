package dev.weft.core;

import static dev.weft.core.Nodes.echo;
import static dev.weft.core.Nodes.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.spi.RunStore;
import dev.weft.core.store.InMemoryRunStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A run whose holder was a process of this host that is gone is taken over at once, not after its
 * lease runs out; a holder that still runs, or runs on another host, makes the caller wait, and is
 * named with how long. Processes are played by runners with lease owners of their own, and whether
 * they run by a probe the test controls.
 */
final class LeaseTakeOverTest {
    private static final Instant STARTED = Instant.parse("2026-11-24T08:00:00Z");

    private final InMemoryRunStore store = InMemoryRunStore.create();
    /** The processes of this host that run, by id, with their start times. */
    private final Map<Long, Instant> running = new ConcurrentHashMap<>();

    private final ProcessProbe probe = (pid, started) -> running.containsKey(pid)
            && started.map(s -> s.equals(running.get(pid))).orElse(true);
    private final CountDownLatch stuck = new CountDownLatch(1);
    private final AtomicInteger secondRuns = new AtomicInteger();

    private final Graph graph = Graph.builder("held")
            .node("first", context -> NodeResult.output(json("1")))
            .node("second", context -> {
                if (secondRuns.incrementAndGet() == 1) {
                    stuck.countDown();
                    try {
                        new CountDownLatch(1).await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return NodeResult.output(json("2"));
            })
            .node("third", echo())
            .edge(Graph.START, "first")
            .edge("first", "second")
            .edge("second", "third")
            .compile();

    private Runner runnerOf(String host, long pid) {
        return Runner.builder()
                .store(store)
                .processProbe(probe)
                .leaseOwner(new LeaseOwner(host, pid, Optional.of(STARTED), "r-" + host + "-" + pid))
                .build();
    }

    /** Starts a run on a runner of process {@code pid} of {@code host}, which gets stuck in its second node. */
    private String heldBy(String host, long pid) throws InterruptedException {
        String runId =
                runnerOf(host, pid).start(graph, RunRequest.of(json("0"))).runId();
        assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();
        return runId;
    }

    @Test
    void aRunHeldByADeadProcessOfThisHostIsTakenOverAtOnce() throws Exception {
        String runId = heldBy(LeaseOwner.localHost(), 111);
        Runner survivor = runnerOf(LeaseOwner.localHost(), 222);
        running.put(222L, STARTED);

        assertThat(survivor.recoverable()).extracting(Run::id).containsExactly(runId);
        RunResult recovered = survivor.recover(graph, runId);

        assertThat(recovered.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(secondRuns).hasValue(2);
        assertThat(LeaseOwner.parse(store.lease(runId).orElseThrow().owner())
                        .orElseThrow()
                        .pid())
                .isEqualTo(222);
    }

    @Test
    void aProcessIdReusedByAnotherProcessDoesNotKeepTheRun() throws Exception {
        String runId = heldBy(LeaseOwner.localHost(), 111);
        running.put(111L, STARTED.plusSeconds(3600));

        RunResult recovered = runnerOf(LeaseOwner.localHost(), 222).recover(graph, runId);

        assertThat(recovered.status()).isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void aRunHeldByALiveProcessIsRefusedWithWhoHoldsItAndHowLong() throws Exception {
        String runId = heldBy(LeaseOwner.localHost(), 111);
        running.put(111L, STARTED);
        Runner other = runnerOf(LeaseOwner.localHost(), 222);

        assertThat(other.recoverable()).isEmpty();
        assertThatThrownBy(() -> other.recover(graph, runId))
                .isInstanceOf(RunStateException.class)
                .hasMessageContaining("process 111 on host " + LeaseOwner.localHost())
                .hasMessageContaining("still running")
                .hasMessageMatching("(?s).*wait \\d+ s.*");
        assertThat(secondRuns).hasValue(1);
    }

    @Test
    void aRunHeldOnAnotherHostIsRefusedUntilItsLeaseExpires() throws Exception {
        String runId = heldBy("elsewhere", 111);

        assertThatThrownBy(() -> runnerOf(LeaseOwner.localHost(), 222).recover(graph, runId))
                .isInstanceOf(RunStateException.class)
                .hasMessageContaining("on host elsewhere")
                .hasMessageMatching("(?s).*lease expires in \\d+ s.*");
    }

    @Test
    void ofTwoProcessesTakingOverAtOnceOneWins() throws Exception {
        String runId = heldBy(LeaseOwner.localHost(), 111);
        String dead = store.lease(runId).orElseThrow().owner();
        CyclicBarrier together = new CyclicBarrier(8);
        List<Boolean> won = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Thread> threads = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            int n = i;
            threads.add(Thread.ofVirtual().start(() -> {
                try {
                    together.await(5, TimeUnit.SECONDS);
                    won.add(store.takeOver(
                            runId,
                            dead,
                            new RunStore.Lease("taker-" + n, Instant.now().plusSeconds(30))));
                } catch (Exception e) {
                    won.add(false);
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join(10_000);
        }

        assertThat(won).hasSize(8).containsOnlyOnce(true);
    }

    @Test
    void leaseOwnersRoundTripThroughTheirText() {
        LeaseOwner owner = new LeaseOwner("host-a", 42, Optional.of(STARTED), "runner-x");
        LeaseOwner noStart = new LeaseOwner("host-b", 7, Optional.empty(), "y");

        assertThat(LeaseOwner.parse(owner.format())).contains(owner);
        assertThat(LeaseOwner.parse(noStart.format())).contains(noStart);
        assertThat(LeaseOwner.parse("runner-1234")).isEmpty();
        assertThat(LeaseOwner.parse("weft/h/notanumber/-/x")).isEmpty();
    }
}
