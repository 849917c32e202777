package dev.weft.redis.testing;

import dev.weft.core.Event;
import dev.weft.core.Json;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.PlanParser;
import dev.weft.plan.PlanRequest;
import dev.weft.redis.RedisSteps;
import dev.weft.redis.RedisUrl;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A server process for the fault tests: on the store {@code args[1]}, it starts {@code args[2]} runs
 * of {@code args[3]} sleeping steps of {@code args[4]} ms each (effects in {@code args[5]}) whose steps
 * go to workers through the Redis at {@code args[0]}, prints {@code queued} and the run ids once every
 * step is on the queue, and then waits for them, to be killed.
 */
public final class ServerMain {
    private ServerMain() {}

    public static void main(String[] args) throws Exception {
        RunStore store = Stores.open(Optional.of(args[1]), Map.of());
        RedisSteps steps = RedisSteps.builder(RedisUrl.parse(args[0]), store).build();
        Runner runner = Runner.builder()
                .store(store)
                .dispatcher(steps)
                .listener(steps.events())
                .build();
        int runs = Integer.parseInt(args[2]);
        int stepsEach = Integer.parseInt(args[3]);
        PlanExecutor executor = TestExecutors.executor();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            ids.add(executor.start(
                            runner,
                            PlanParser.fromJson(
                                    TestExecutors.sleepingPlan(stepsEach, Long.parseLong(args[4]), Path.of(args[5]))),
                            PlanRequest.auto(Json.object()))
                    .runId());
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (ids.stream()
                        .mapToLong(id -> store.events(id).stream()
                                .filter(e -> e.type().equals(Event.STEP_QUEUED))
                                .count())
                        .sum()
                < (long) runs * stepsEach) {
            if (System.nanoTime() > deadline) {
                System.out.println("not queued in time");
                System.exit(2);
            }
            Thread.sleep(20);
        }
        System.out.println("queued " + String.join(" ", ids));
        System.out.flush();
        Thread.currentThread().join();
    }
}
