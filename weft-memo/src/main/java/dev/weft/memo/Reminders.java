package dev.weft.memo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.SchedulerClient.ScheduleOptions;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.exceptions.TaskInstanceException;
import com.github.kagkarlsson.scheduler.jdbc.JdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.PostgreSqlJdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.SqliteJdbcCustomization;
import com.github.kagkarlsson.scheduler.serializer.Serializer;
import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.ExecutionContext;
import com.github.kagkarlsson.scheduler.task.FailureHandler;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.CustomTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.testhelper.ManualScheduler;
import com.github.kagkarlsson.scheduler.testhelper.SettableClock;
import com.github.kagkarlsson.scheduler.testhelper.TestHelper;
import dev.weft.core.Json;
import dev.weft.memo.data.Event;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.Notifications.Notification;
import dev.weft.memo.data.ReminderTimes;
import dev.weft.memo.data.Task;
import dev.weft.memo.data.User;
import dev.weft.store.AppDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Memo's reminders firing on time, through db-scheduler on the store's own database: each reminder
 * waits as one row of {@code memo_scheduled_tasks} for its next time. When it is due, it is kept as
 * a {@code reminder.due} notification addressed to its user ({@link MemoData#notifications()}) and
 * handed to the listeners; a recurring one then waits for its next time, a one-off one is done.
 *
 * <p>A restart loses none (the rows are in the database) and fires none twice (a notification is
 * kept once per reminder and time); one that fell due while no scheduler ran fires when one starts,
 * marked late. {@link #sync} is called after every change to tasks; {@link #syncAll} when a
 * scheduler starts, for a change whose process died before it could sync. Thread-safe.
 */
public final class Reminders {
    /** db-scheduler's name for Memo's reminders. */
    public static final String TASK_NAME = "memo-reminder";
    /** The table db-scheduler keeps them in (migration {@code V4__reminders.sql}). */
    public static final String TABLE = "memo_scheduled_tasks";
    /** How long after its time a reminder is said to fire late, unless told otherwise. */
    public static final Duration LATE_AFTER = Duration.ofMinutes(1);

    static final String TASK = "task";
    static final String EVENT = "event";

    private final MemoData data;
    private final Supplier<Instant> clock;
    private final Duration lateAfter;
    private final CustomTask<String> task;
    private final SchedulerClient client;
    private final List<Consumer<Notification>> listeners = new CopyOnWriteArrayList<>();

    /** The reminders of {@code data}, with {@code clock} telling when they fire late and recur. */
    public Reminders(MemoData data, Supplier<Instant> clock) {
        this(data, clock, LATE_AFTER);
    }

    /** The reminders of {@code data}; one that fires more than {@code lateAfter} after its time is late. */
    public Reminders(MemoData data, Supplier<Instant> clock, Duration lateAfter) {
        this.data = Objects.requireNonNull(data, "data");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.lateAfter = Objects.requireNonNull(lateAfter, "lateAfter");
        this.task = Tasks.custom(TASK_NAME, String.class)
                .onFailure(new FailureHandler.OnFailureRetryLater<>(Duration.ofMinutes(1)))
                .execute(this::execute);
        this.client = SchedulerClient.Builder.create(dataSource(), task)
                .tableName(TABLE)
                .serializer(UTF8)
                .jdbcCustomization(customization())
                .build();
    }

    /** Calls {@code listener} with every notification this process fires. */
    public void onFire(Consumer<Notification> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Starts firing: a db-scheduler that looks for due reminders every {@code pollingInterval} (and at
     * once for one scheduled by this process), after scheduling any a crashed process left unscheduled.
     * Stop it with {@link Scheduler#stop()}.
     */
    public Scheduler start(Duration pollingInterval, String name) {
        syncAll();
        Scheduler scheduler = Scheduler.create(dataSource(), task)
                .tableName(TABLE)
                .serializer(UTF8)
                .jdbcCustomization(customization())
                .schedulerName(new SchedulerName.Fixed(name))
                .pollingInterval(pollingInterval)
                .heartbeatInterval(Duration.ofSeconds(10))
                .threads(2)
                .enableImmediateExecution()
                .shutdownMaxWait(Duration.ofSeconds(2))
                .build();
        scheduler.start();
        return scheduler;
    }

    /** A scheduler that fires only when told ({@link ManualScheduler#runAnyDueExecutions()}), on {@code clock}. */
    ManualScheduler manual(SettableClock clock) {
        syncAll();
        TestHelper.ManualSchedulerBuilder builder = TestHelper.createManualScheduler(dataSource(), task)
                .clock(clock)
                .tableName(TABLE);
        builder.serializer(UTF8).jdbcCustomization(customization());
        return builder.build();
    }

    /**
     * Brings the schedule of {@code user}'s tasks {@code taskIds} in line with the tasks as they are
     * now: a reminder waits for its time, a task that is done, deleted or no reminder waits for
     * nothing. {@code now} is the time of the change (a recurring reminder's next time is after it).
     */
    public void sync(String user, Collection<String> taskIds, Instant now) {
        ZoneId zone = zoneOf(user);
        for (String id : taskIds) {
            schedule(user, TASK, id, data.tasks().find(user, id).flatMap(t -> ReminderTimes.first(t, zone, now)));
        }
    }

    /**
     * Brings the schedule of {@code user}'s events {@code eventIds} in line with the events as they are
     * now: an event with {@code reminderMinutesBefore} reminds that long before its next start after
     * {@code now}.
     */
    public void syncEvents(String user, Collection<String> eventIds, Instant now) {
        for (String id : eventIds) {
            schedule(user, EVENT, id, data.events().find(user, id).flatMap(e -> eventReminder(e, now)));
        }
    }

    /** The time {@code event} reminds of its first start after {@code after}. */
    static Optional<Instant> eventReminder(Event event, Instant after) {
        if (event.reminderMinutesBefore().isEmpty()) {
            return Optional.empty();
        }
        Duration before = Duration.ofMinutes(event.reminderMinutesBefore().get());
        return event.occurrences(after, after.plus(Duration.ofDays(400)), 3).stream()
                .map(Event.Occurrence::start)
                .filter(start -> start.isAfter(after))
                .findFirst()
                .map(start -> start.minus(before));
    }

    /** Makes the reminder of {@code source} {@code id} wait for {@code at}, or for nothing. */
    private void schedule(String user, String source, String id, Optional<Instant> at) {
        TaskInstance<String> instance = task.instance(instanceId(source, user, id), payload(user, source, id));
        try {
            if (at.isPresent()) {
                client.schedule(instance, at.get(), ScheduleOptions.WHEN_EXISTS_RESCHEDULE);
            } else if (client.getScheduledExecution(instance).isPresent()) {
                client.cancel(instance);
            }
        } catch (TaskInstanceException firing) {
            // It is firing now; when done it reads the row as it is then and schedules from that.
        }
    }

    /**
     * Schedules every reminder of every user that waits for nothing: a change whose process died
     * between its commit and its {@link #sync}. A one-off reminder that already fired is left alone.
     */
    public void syncAll() {
        Instant now = clock.get();
        for (String user : data.userIds()) {
            ZoneId zone = zoneOf(user);
            for (Task t : data.tasks().all(user)) {
                Optional<Instant> at = ReminderTimes.first(t, zone, now);
                if (at.isEmpty()
                        || t.reminderRecurrence().isEmpty()
                                && data.notifications().exists(user, Notification.idOf(TASK, t.id(), at.get()))) {
                    continue;
                }
                TaskInstance<String> instance =
                        task.instance(instanceId(TASK, user, t.id()), payload(user, TASK, t.id()));
                client.scheduleIfNotExists(instance, at.get());
            }
            for (Event e : data.events().all(user)) {
                Optional<Instant> at = eventReminder(e, now);
                if (at.isPresent()) {
                    client.scheduleIfNotExists(
                            task.instance(instanceId(EVENT, user, e.id()), payload(user, EVENT, e.id())), at.get());
                }
            }
        }
    }

    /** When each of {@code user}'s reminders fires next, soonest first. */
    public List<Upcoming> upcoming(String user) {
        return client.getScheduledExecutionsForTask(TASK_NAME, String.class).stream()
                .filter(e -> user.equals(
                        Json.parse(e.getData(), "reminder").path("user").asText()))
                .map(e -> {
                    JsonNode payload = Json.parse(e.getData(), "reminder");
                    String id = payload.path("id").asText();
                    String source = payload.path("source").asText();
                    String text = source.equals(EVENT)
                            ? data.events().find(user, id).map(Event::summary).orElse("")
                            : data.tasks().find(user, id).map(Task::text).orElse("");
                    return new Upcoming(source, id, text, e.getExecutionTime());
                })
                .sorted(java.util.Comparator.comparing(Upcoming::at))
                .toList();
    }

    /** A reminder waiting for its time. */
    public record Upcoming(String source, String id, String text, Instant at) {}

    private CompletionHandler<String> execute(TaskInstance<String> instance, ExecutionContext context) {
        Instant due = context.getExecution().executionTime;
        JsonNode payload = Json.parse(instance.getData(), "reminder");
        String user = payload.path("user").asText();
        String id = payload.path("id").asText();
        Optional<Instant> next =
                payload.path("source").asText(TASK).equals(EVENT) ? fireEvent(user, id, due) : fire(user, id, due);
        return (complete, operations) -> {
            if (next.isPresent()) {
                operations.reschedule(complete, next.get());
            } else {
                operations.remove();
            }
        };
    }

    /** Fires {@code user}'s task {@code id} due at {@code due}; when it fires next, if it recurs. */
    private Optional<Instant> fire(String user, String id, Instant due) {
        Optional<Task> found = data.tasks().find(user, id);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Task t = found.get();
        ZoneId zone = zoneOf(user);
        Instant now = clock.get();
        Optional<Instant> expected = ReminderTimes.first(t, zone, due);
        if (expected.isEmpty()) {
            return Optional.empty();
        }
        if (expected.get().isAfter(due)) {
            // The task changed and its sync was lost: wait for its time as it is now.
            return expected;
        }
        Instant dueAt = t.reminderRecurrence().isPresent() ? due : expected.get();
        Notification notification = new Notification(
                user,
                Notification.idOf(TASK, id, dueAt),
                dev.weft.memo.data.Notifications.REMINDER_DUE,
                TASK,
                id,
                t.text(),
                dueAt,
                now,
                Duration.between(dueAt, now).compareTo(lateAfter) > 0);
        if (data.notifications().add(notification)) {
            listeners.forEach(listener -> listener.accept(notification));
        }
        return ReminderTimes.next(t, zone, now.isAfter(due) ? now : due);
    }

    /** Fires the reminder of {@code user}'s event {@code id} due at {@code due}; when it fires next. */
    private Optional<Instant> fireEvent(String user, String id, Instant due) {
        Optional<Event> found = data.events().find(user, id);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Event event = found.get();
        Duration before = minutesBefore(event);
        Optional<Instant> expected = eventReminder(event, due.plus(before).minusMillis(1));
        if (expected.isEmpty()) {
            return Optional.empty();
        }
        if (expected.get().isAfter(due)) {
            // The event changed and its sync was lost: wait for its time as it is now.
            return expected;
        }
        Instant now = clock.get();
        Notification notification = new Notification(
                user,
                Notification.idOf(EVENT, id, due),
                dev.weft.memo.data.Notifications.REMINDER_DUE,
                EVENT,
                id,
                event.summary(),
                due,
                now,
                Duration.between(due, now).compareTo(lateAfter) > 0);
        if (data.notifications().add(notification)) {
            listeners.forEach(listener -> listener.accept(notification));
        }
        Instant started = due.plus(before);
        Instant after = now.plus(before).isAfter(started) ? now.plus(before) : started;
        return eventReminder(event, after);
    }

    private static Duration minutesBefore(Event event) {
        return Duration.ofMinutes(event.reminderMinutesBefore().orElse(0));
    }

    private ZoneId zoneOf(String user) {
        return data.findUser(user).map(User::zone).orElse(ZoneOffset.UTC);
    }

    private static String instanceId(String source, String user, String id) {
        return source + "/" + user + "/" + id;
    }

    private static String payload(String user, String source, String id) {
        ObjectNode node = Json.object();
        node.put("user", user);
        node.put("source", source);
        node.put("id", id);
        return node.toString();
    }

    private javax.sql.DataSource dataSource() {
        return data.database().dataSource();
    }

    private JdbcCustomization customization() {
        return data.database().dialect() == AppDatabase.Dialect.SQLITE
                ? new SqliteJdbcCustomization()
                : new PostgreSqlJdbcCustomization(false, true);
    }

    /** The payload is JSON text, kept as UTF-8 bytes. */
    private static final Serializer UTF8 = new Serializer() {
        @Override
        public byte[] serialize(Object value) {
            return value == null ? null : value.toString().getBytes(StandardCharsets.UTF_8);
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T deserialize(Class<T> type, byte[] bytes) {
            return bytes == null ? null : (T) new String(bytes, StandardCharsets.UTF_8);
        }
    };
}
