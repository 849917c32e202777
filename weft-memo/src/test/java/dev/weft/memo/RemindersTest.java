package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.kagkarlsson.scheduler.testhelper.ManualScheduler;
import com.github.kagkarlsson.scheduler.testhelper.SettableClock;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.Notifications.Notification;
import dev.weft.plan.PlanMode;
import dev.weft.store.EmbeddedPostgres;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reminders fire on time through db-scheduler on the store's database, driven by a settable clock:
 * once each, late when the process was down, recurring until done, and each to its own user.
 */
final class RemindersTest {
    /** Tuesday 24 November 2026, 10:00 in Jerusalem. */
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    private static final Optional<ZoneId> JERUSALEM = Optional.of(ZoneId.of("Asia/Jerusalem"));

    @TempDir
    Path dir;

    private final SettableClock clock = new SettableClock();
    private final List<Notification> fired = new CopyOnWriteArrayList<>();
    private RunStore store;
    private Memo memo;
    private Runner runner;
    private ManualScheduler scheduler;

    private void open(String url) {
        store = Stores.open(url);
        memo = Memo.open(store, clock::now);
        memo.reminders().onFire(fired::add);
        runner = Runner.builder()
                .store(store)
                .time(new TimeSource() {
                    @Override
                    public Instant now() {
                        return clock.now();
                    }

                    @Override
                    public void sleep(Duration duration) {}
                })
                .build();
        scheduler = memo.reminders().manual(clock);
    }

    private void openSqlite() {
        clock.set(NOW);
        open("sqlite:" + dir.resolve("memo.db"));
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private Memo.Reply ask(String user, String message) {
        Memo.Reply reply = memo.ask(runner, new Memo.Request(user, message, JERUSALEM, PlanMode.AUTO));
        assertThat(reply.run().status()).as(reply.text()).isEqualTo(RunStatus.COMPLETED);
        return reply;
    }

    /** Moves the clock to {@code at} and fires whatever is due then. */
    private void at(Instant at) {
        clock.set(at);
        scheduler.runAnyDueExecutions();
    }

    @Test
    void aReminderInTenMinutesFiresOnceAtItsTime() {
        openSqlite();
        ask("dana", "remind me in 10 minutes to take the pizza out");

        at(NOW.plus(Duration.ofMinutes(9)));
        assertThat(fired).isEmpty();
        at(NOW.plus(Duration.ofMinutes(10)));
        at(NOW.plus(Duration.ofMinutes(11)));

        assertThat(fired).hasSize(1);
        Notification n = fired.get(0);
        assertThat(n.type()).isEqualTo("reminder.due");
        assertThat(n.user()).isEqualTo("dana");
        assertThat(n.text()).isEqualTo("take the pizza out");
        assertThat(n.dueAt()).isEqualTo(NOW.plus(Duration.ofMinutes(10)));
        assertThat(n.late()).isFalse();
        assertThat(memo.data().notifications().pending("dana")).containsExactly(n);
        assertThat(memo.reminders().upcoming("dana")).isEmpty();
    }

    @Test
    void aDailyReminderFiresEachDayUntilItIsDone() {
        openSqlite();
        ask("dana", "remind me every day at 8 to take vitamins");
        Instant tomorrow8 = Instant.parse("2026-11-25T06:00:00Z");
        assertThat(memo.reminders().upcoming("dana"))
                .extracting(Reminders.Upcoming::at)
                .containsExactly(tomorrow8);

        at(tomorrow8);
        at(tomorrow8.plus(Duration.ofDays(1)));
        assertThat(fired)
                .extracting(Notification::dueAt)
                .containsExactly(tomorrow8, tomorrow8.plus(Duration.ofDays(1)));

        clock.set(tomorrow8.plus(Duration.ofDays(1)).plus(Duration.ofHours(1)));
        ask("dana", "mark take vitamins as done");
        at(tomorrow8.plus(Duration.ofDays(2)));

        assertThat(fired).hasSize(2);
        assertThat(memo.reminders().upcoming("dana")).isEmpty();
    }

    @Test
    void aNudgeRepeatsUntilItIsDone() {
        openSqlite();
        ask("dana", "remind me every 15 minutes to drink water");

        for (int i = 1; i <= 3; i++) {
            at(NOW.plus(Duration.ofMinutes(15L * i)));
        }
        assertThat(fired).hasSize(3);

        ask("dana", "done with drink water");
        at(NOW.plus(Duration.ofMinutes(60)));
        assertThat(fired).hasSize(3);
    }

    @Test
    void oneMissedWhileTheProcessWasDownFiresLateOnRestartAndOnce() {
        openSqlite();
        ask("dana", "remind me at 10:30 to call mom");
        store.close();

        clock.set(NOW.plus(Duration.ofHours(2)));
        open("sqlite:" + dir.resolve("memo.db"));
        scheduler.runAnyDueExecutions();
        scheduler.runAnyDueExecutions();

        assertThat(fired).hasSize(1);
        assertThat(fired.get(0).late()).isTrue();
        assertThat(fired.get(0).dueAt()).isEqualTo(Instant.parse("2026-11-24T08:30:00Z"));

        store.close();
        open("sqlite:" + dir.resolve("memo.db"));
        scheduler.runAnyDueExecutions();
        assertThat(fired).hasSize(1);
        assertThat(memo.data().notifications().recent("dana", 10)).hasSize(1);
    }

    @Test
    void movingAReminderFiresItAtItsNewTimeAndUndoingItFiresNothing() {
        openSqlite();
        ask("dana", "remind me at 11:00 to water the plants");
        ask("dana", "move the reminder to water the plants to 13:00");

        at(Instant.parse("2026-11-24T09:30:00Z"));
        assertThat(fired).isEmpty();
        at(Instant.parse("2026-11-24T11:00:00Z"));
        assertThat(fired).extracting(Notification::text).containsExactly("water the plants");

        Memo.Reply made = ask("dana", "remind me at 15:00 to feed the cat");
        memo.executor().undo(runner, made.run().runId(), "dana");
        at(Instant.parse("2026-11-24T13:30:00Z"));
        assertThat(fired).hasSize(1);
    }

    @Test
    void eachUserSeesOnlyTheirOwnReminders() {
        openSqlite();
        ask("dana", "remind me in 5 minutes to stretch");
        ask("omer", "תזכיר לי בעוד 5 דקות לשתות מים");

        at(NOW.plus(Duration.ofMinutes(5)));

        assertThat(memo.data().notifications().pending("dana"))
                .extracting(Notification::text)
                .containsExactly("stretch");
        assertThat(memo.data().notifications().pending("omer"))
                .extracting(Notification::text)
                .containsExactly("לשתות מים");
        assertThat(memo.reminders().upcoming("dana")).isEmpty();

        String danas = memo.data().notifications().pending("dana").get(0).id();
        memo.data().notifications().delivered("omer", List.of(danas), clock.now());
        assertThat(memo.data().notifications().pending("dana")).hasSize(1);
        memo.data().notifications().delivered("dana", List.of(danas), clock.now());
        assertThat(memo.data().notifications().pending("dana")).isEmpty();
        assertThat(memo.data().notifications().pending("omer")).hasSize(1);
    }

    @Test
    void anEventRemindsItsMinutesBeforeEachOccurrence() {
        openSqlite();
        memo.data().user("dana", "en", ZoneId.of("Asia/Jerusalem"), NOW);
        com.fasterxml.jackson.databind.node.ObjectNode args = dev.weft.core.Json.object();
        args.put("operation", "createRecurring");
        args.put("summary", "standup");
        args.put("startTime", "09:00");
        args.put("endTime", "09:15");
        args.putArray("days").add("Wednesday").add("Thursday");
        args.put("reminderMinutesBefore", 10);
        dev.weft.plan.ToolRegistry tools = new MemoTools(memo.data(), memo.reminders()).registry();
        tools.call(
                MemoTools.CALENDAR,
                args,
                dev.weft.plan.ToolContext.detached("run-1", Optional.of("dana"), "A", new TimeSource() {
                    @Override
                    public Instant now() {
                        return clock.now();
                    }

                    @Override
                    public void sleep(Duration duration) {}
                }));
        Instant wednesday = Instant.parse("2026-11-25T06:50:00Z");

        assertThat(memo.reminders().upcoming("dana"))
                .extracting(Reminders.Upcoming::at)
                .containsExactly(wednesday);
        at(wednesday);
        at(wednesday.plus(Duration.ofDays(1)));

        assertThat(fired).extracting(Notification::text).containsExactly("standup", "standup");
        assertThat(fired)
                .extracting(Notification::dueAt)
                .containsExactly(wednesday, wednesday.plus(Duration.ofDays(1)));
        assertThat(memo.reminders().upcoming("dana"))
                .extracting(Reminders.Upcoming::at)
                .containsExactly(Instant.parse("2026-12-02T06:50:00Z"));
    }

    @Test
    void firesOnPostgresql() {
        clock.set(NOW);
        open(EmbeddedPostgres.shared().freshUrl());
        ask("dana", "remind me in 10 minutes to take the pizza out");

        at(NOW.plus(Duration.ofMinutes(10)));
        at(NOW.plus(Duration.ofMinutes(20)));

        assertThat(fired).extracting(Notification::text).containsExactly("take the pizza out");
        assertThat(memo.data().notifications().pending("dana")).hasSize(1);
    }
}
