package dev.weft.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

final class BatcherTest {

    @Test
    void aRequestAloneGoesAtOnceInABatchOfItsOwn() {
        List<List<String>> batches = new CopyOnWriteArrayList<>();
        try (Batcher<String, Object> batcher = new Batcher<>("test", 10, batch -> {
            batches.add(batch);
            return batch.stream().<Object>map(String::toUpperCase).toList();
        })) {
            assertThat(batcher.send("a")).isEqualTo("A");
            assertThat(batcher.send("b")).isEqualTo("B");
        }
        assertThat(batches).containsExactly(List.of("a"), List.of("b"));
    }

    @Test
    void requestsThatComeWhileABatchIsOnItsWayGoTogetherInTheNext() throws Exception {
        List<List<String>> batches = new CopyOnWriteArrayList<>();
        CountDownLatch firstSent = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (Batcher<String, Object> batcher = new Batcher<>("test", 10, batch -> {
            batches.add(batch);
            firstSent.countDown();
            await(release);
            return batch.stream().<Object>map(String::toUpperCase).toList();
        })) {
            CompletableFuture<Object> first = CompletableFuture.supplyAsync(() -> batcher.send("first"));
            assertThat(firstSent.await(10, TimeUnit.SECONDS)).isTrue();
            List<CompletableFuture<Object>> others = new ArrayList<>();
            for (String request : List.of("b", "c", "d")) {
                others.add(CompletableFuture.supplyAsync(() -> batcher.send(request)));
            }
            while (batcher.waiting() < 3) {
                Thread.onSpinWait();
            }
            release.countDown();
            assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("FIRST");
            for (CompletableFuture<Object> other : others) {
                assertThat(other.get(10, TimeUnit.SECONDS)).isIn("B", "C", "D");
            }
        }
        assertThat(batches).hasSize(2);
        assertThat(batches.get(1)).containsExactlyInAnyOrder("b", "c", "d");
    }

    @Test
    void aRequestThatFailsFailsOnlyItsCaller() {
        try (Batcher<String, Object> batcher = new Batcher<>(
                "test",
                10,
                batch -> batch.stream()
                        .<Object>map(request ->
                                request.equals("bad") ? new IllegalArgumentException("no: " + request) : request)
                        .toList())) {
            assertThatThrownBy(() -> batcher.send("bad"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("no: bad");
            assertThat(batcher.send("good")).isEqualTo("good");
        }
    }

    @Test
    void aBatchThatFailsAsAWholeFailsEachOfItsCallers() {
        try (Batcher<String, Object> batcher = new Batcher<>("test", 10, batch -> {
            throw new RedisUnavailableException("Redis is away");
        })) {
            assertThatThrownBy(() -> batcher.send("a"))
                    .isInstanceOf(RedisUnavailableException.class)
                    .hasMessageContaining("Redis is away");
        }
    }

    @Test
    void aClosedBatcherSendsNothing() {
        List<String> sent = new CopyOnWriteArrayList<>();
        Batcher<String, Object> batcher = new Batcher<>("test", 10, batch -> {
            sent.addAll(batch);
            return new ArrayList<>(batch);
        });
        batcher.close();
        assertThatThrownBy(() -> batcher.send("late")).isInstanceOf(RedisUnavailableException.class);
        assertThat(sent).isEmpty();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
