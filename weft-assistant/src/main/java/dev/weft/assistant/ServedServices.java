package dev.weft.assistant;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * The background services ({@link Assistant#services()}) of every assistant a long-running process
 * serves ({@code weft serve}, {@code weft channels telegram}), started for everyone when the process
 * starts and stopped with it. A service that runs only when asked for, or whose interval the process
 * sets to zero, is not started. Thread-safe.
 */
public final class ServedServices implements AutoCloseable {
    /** One service started: {@code assistant/service}, and what stops it. */
    private record Running(String name, AutoCloseable handle) {}

    private final List<Running> running;
    private final BiConsumer<String, String> log;

    private ServedServices(List<Running> running, BiConsumer<String, String> log) {
        this.running = List.copyOf(running);
        this.log = log;
    }

    /**
     * Starts the services of {@code assistants}, each every {@code intervals.get(name)} when the process
     * sets one (zero: not at all), else at its own interval; {@code log} hears, with the service's {@code
     * assistant/service} name, each line it has to say and each failure to stop. A service that fails to
     * start stops those started before it.
     */
    public static ServedServices start(
            Assistants assistants, Map<String, Duration> intervals, BiConsumer<String, String> log) {
        Objects.requireNonNull(intervals, "intervals");
        Objects.requireNonNull(log, "log");
        List<Running> running = new ArrayList<>();
        try {
            for (Assistant assistant : assistants.all()) {
                for (BackgroundService service : assistant.services()) {
                    Duration every = intervals.getOrDefault(service.name(), service.every());
                    if (service.onRequest() || every.isZero()) {
                        continue;
                    }
                    String name = assistant.name() + "/" + service.name();
                    running.add(new Running(
                            name,
                            service.start(every, BackgroundService.Scope.everyone(), line -> log.accept(name, line))));
                }
            }
        } catch (RuntimeException e) {
            new ServedServices(running, log).close();
            throw e;
        }
        return new ServedServices(running, log);
    }

    /** The services running, as {@code assistant/service}, in the order they started. */
    public List<String> names() {
        return running.stream().map(Running::name).toList();
    }

    /** Stops every service, the last started first; one that fails to stop is logged and the rest stop. */
    @Override
    public void close() {
        for (Running service : running.reversed()) {
            try {
                service.handle().close();
            } catch (Exception e) {
                log.accept(service.name(), "did not stop: " + e);
            }
        }
    }
}
