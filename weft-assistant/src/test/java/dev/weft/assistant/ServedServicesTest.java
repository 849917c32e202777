package dev.weft.assistant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

final class ServedServicesTest {
    /** What the services of a test did, in order: {@code start name every scope}, {@code stop name}. */
    private final List<String> happened = new CopyOnWriteArrayList<>();

    private BackgroundService service(String name, Duration every, boolean onRequest) {
        return new BackgroundService(name, name, every, onRequest, (interval, scope, tell) -> {
            happened.add(
                    "start " + name + " " + interval + " " + scope.getClass().getSimpleName());
            tell.accept(name + " is running");
            return () -> happened.add("stop " + name);
        });
    }

    @Test
    void startsEveryAssistantsServicesForEveryoneAndStopsThemLastFirst() {
        Assistants assistants = Assistants.of(
                new QuietAssistant(
                        "memo",
                        List.of(
                                service("calendar-sync", Duration.ofMinutes(5), false),
                                service("mail-watch", Duration.ofSeconds(30), true))),
                new QuietAssistant("shop", List.of(service("restock", Duration.ofHours(1), false))));
        List<String> told = new CopyOnWriteArrayList<>();

        ServedServices services =
                ServedServices.start(assistants, Map.of(), (name, line) -> told.add(name + ": " + line));
        services.close();

        assertThat(services.names()).containsExactly("memo/calendar-sync", "shop/restock");
        assertThat(told)
                .containsExactly("memo/calendar-sync: calendar-sync is running", "shop/restock: restock is running");
        assertThat(happened)
                .as("a service run only on request is not started")
                .containsExactly(
                        "start calendar-sync PT5M Everyone",
                        "start restock PT1H Everyone",
                        "stop restock",
                        "stop calendar-sync");
    }

    @Test
    void anIntervalTheProcessSetsReplacesTheServicesOwnAndZeroLeavesItStopped() {
        Assistants assistants = Assistants.of(new QuietAssistant(
                "memo",
                List.of(
                        service("calendar-sync", Duration.ofMinutes(5), false),
                        service("digest", Duration.ofHours(1), false))));

        ServedServices services = ServedServices.start(
                assistants, Map.of("calendar-sync", Duration.ofSeconds(10), "digest", Duration.ZERO), (n, l) -> {});

        assertThat(services.names()).containsExactly("memo/calendar-sync");
        assertThat(happened).containsExactly("start calendar-sync PT10S Everyone");
    }

    @Test
    void aServiceThatFailsToStartStopsThoseStartedBeforeIt() {
        BackgroundService broken =
                new BackgroundService("broken", "broken", Duration.ofMinutes(1), false, (e, s, t) -> {
                    throw new IllegalStateException("no calendar server");
                });
        Assistants assistants = Assistants.of(
                new QuietAssistant("memo", List.of(service("calendar-sync", Duration.ofMinutes(5), false), broken)));

        assertThatThrownBy(() -> ServedServices.start(assistants, Map.of(), (n, l) -> {}))
                .hasMessageContaining("no calendar server");
        assertThat(happened).containsExactly("start calendar-sync PT5M Everyone", "stop calendar-sync");
    }
}
