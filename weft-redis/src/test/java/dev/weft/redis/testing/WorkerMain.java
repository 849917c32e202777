package dev.weft.redis.testing;

import dev.weft.core.spi.RunStore;
import dev.weft.plan.spi.PlanExecutorProvider;
import dev.weft.redis.RedisUrl;
import dev.weft.redis.Worker;
import dev.weft.store.Stores;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A worker process for the tests that start several and kill some: arguments are the Redis URL, the
 * store's URL, the concurrency, the lease in milliseconds and the most tries. Prints "ready" once it
 * reads, and stops gracefully on SIGTERM.
 */
public final class WorkerMain {
    private WorkerMain() {}

    public static void main(String[] args) {
        RunStore store = Stores.open(Optional.of(args[1]), Map.of());
        Worker worker = Worker.builder(RedisUrl.parse(args[0]), store)
                .executors(name -> PlanExecutorProvider.find(name).map(p -> p.executor(store)))
                .concurrency(Integer.parseInt(args[2]))
                .lease(Duration.ofMillis(Long.parseLong(args[3])))
                .maxTries(Integer.parseInt(args[4]))
                .log(line -> {
                    System.out.println(line);
                    System.out.flush();
                })
                .build()
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            int handed = worker.stop(Duration.ofSeconds(5));
            System.out.println("stopped; handed back " + handed);
            System.out.flush();
            store.close();
        }));
        System.out.println("ready " + worker.consumer());
        System.out.flush();
        try {
            Thread.currentThread().join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
