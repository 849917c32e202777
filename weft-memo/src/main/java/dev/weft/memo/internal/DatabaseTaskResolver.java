package dev.weft.memo.internal;

import static dev.weft.memo.internal.MemoResolvers.args;
import static dev.weft.memo.internal.MemoResolvers.copy;
import static dev.weft.memo.internal.MemoResolvers.iso;
import static dev.weft.memo.internal.MemoResolvers.language;
import static dev.weft.memo.internal.MemoResolvers.now;
import static dev.weft.memo.internal.MemoResolvers.pick;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.language.EntityMatch;
import dev.weft.memo.MemoTools;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.Task;
import dev.weft.memo.internal.planning.Times;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import dev.weft.time.TimeExpression;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Seed 002's DatabaseTaskResolver: tasks, reminders and alarms into {@code taskOperations} calls, the
 * user's words looked up among their own tasks. Thread-safe.
 */
final class DatabaseTaskResolver implements Resolver {
    private final MemoResolvers resolvers;
    private final MemoData data;

    DatabaseTaskResolver(MemoResolvers resolvers) {
        this.resolvers = resolvers;
        this.data = resolvers.data();
    }

    @Override
    public String name() {
        return "DatabaseTaskResolver";
    }

    @Override
    public String capability() {
        return "database";
    }

    @Override
    public Set<String> actions() {
        return Set.of(
                "create_task",
                "create_tasks",
                "find_task",
                "update_task",
                "delete_task",
                "delete_tasks",
                "complete_task",
                "complete_tasks");
    }

    @Override
    public Optional<String> tool(PlanStep step) {
        return Optional.of(MemoTools.TASKS);
    }

    @Override
    public Resolution resolve(PlanStep step, ResolveContext context) {
        JsonNode c = step.constraints();
        switch (step.action()) {
            case "create_task" -> {
                ObjectNode args = args("create");
                copy(c, args, "text", "category", "dueDate", "reminder", "reminderRecurrence");
                if (c.path("isAlarm").asBoolean() && !args.has("dueDate") && !args.has("reminderRecurrence")) {
                    // "set an alarm": for when?
                    Optional<TimeExpression> when = resolvers.timeAnswer(context);
                    if (when.isEmpty()) {
                        return Resolution.clarify(Texts.of(language(context), "For what time?", "לאיזו שעה?"));
                    }
                    TimeExpression at = dev.weft.memo.internal.planning.Times.morning(
                            when.get(), now(context, resolvers.zone(context)));
                    dueOf(at, resolvers.zone(context)).ifPresent(d -> args.put("dueDate", d));
                    args.put("reminder", "0 minutes");
                }
                if (args.path("text").asText("").isBlank()
                        && MemoResolvers.reply(context).isPresent()) {
                    // The answer to "what should I remind you about?" is the text.
                    args.put("text", MemoResolvers.reply(context).get());
                }
                if (args.path("text").asText("").isBlank()) {
                    // Nothing to remind of: ask, and the answer becomes the text.
                    return Resolution.clarify(Texts.of(
                            language(context),
                            c.path("isReminder").asBoolean() ? "What should I remind you about?" : "What is the task?",
                            c.path("isReminder").asBoolean() ? "על מה להזכיר לך?" : "מה המשימה?"));
                }
                return Resolution.execute(MemoTools.TASKS, args);
            }
            case "create_tasks" -> {
                ObjectNode args = args("createMultiple");
                args.set("tasks", c.path("tasks").deepCopy());
                return Resolution.execute(MemoTools.TASKS, args);
            }
            case "find_task" -> {
                ObjectNode args = args("getAll");
                ObjectNode filters = args.putObject("filters");
                copy(c, filters, "window", "type", "category");
                filters.put("completed", false);
                return Resolution.execute(MemoTools.TASKS, args);
            }
            case "delete_tasks" -> {
                ObjectNode args = args("deleteAll");
                ObjectNode where = args.putObject("where");
                where.put("window", c.path("window").asText("all"));
                copy(c, where, "type", "exceptText");
                return Resolution.execute(MemoTools.TASKS, args);
            }
            case "complete_tasks" -> {
                ObjectNode args = args("completeAll");
                ObjectNode where = args.putObject("where");
                where.put("window", c.path("window").asText("all"));
                return Resolution.execute(MemoTools.TASKS, args);
            }
            default -> {
                return withTask(step, context, c);
            }
        }
    }

    private Resolution withTask(PlanStep step, ResolveContext context, JsonNode c) {
        String user = context.user().orElseThrow();
        String query = c.path("query").asText("");
        boolean reminders = c.path("type").asText("").equals("reminder");
        List<Task> tasks = data.tasks().all(user).stream()
                .filter(t -> !step.action().equals("complete_task") || !t.completed())
                .filter(t -> !reminders || (t.isReminder() && !t.completed()))
                .toList();
        String language = language(context);
        String id = c.path("taskId").asText("");
        if (id.isEmpty()) {
            MemoResolvers.unnamed(query, language(context));
        }
        List<Task> named = tasks.stream().filter(t -> t.id().equals(id)).toList();
        // A follow-up's "it" is the task the conversation was about, if the user still has it; "cancel my
        // alarm", with no words to go by, has the user's reminders as candidates.
        List<Task> found = !named.isEmpty()
                ? named
                : query.isBlank() && reminders ? tasks : EntityMatch.best(query, tasks, Task::text);
        if (named.isEmpty() && !step.action().equals("update_task") && c.hasNonNull("dueDate")) {
            // "cancel my alarm tomorrow at 6": of those, the ones due then (that minute, or that day).
            List<Task> then = dueThen(found, c.get("dueDate").asText(), resolvers.zone(context));
            if (!then.isEmpty() || (query.isBlank() && reminders)) {
                // "don't wake me up at 7" with nothing due at 7 finds nothing, not every other reminder.
                found = then;
                if (then.isEmpty()) {
                    throw new dev.weft.core.NotFoundException(Texts.of(
                            language(context),
                            "You have no alarm or reminder due then",
                            "אין לך שעון מעורר או תזכורת בזמן הזה"));
                }
            }
        }
        Object picked = pick(
                found,
                context,
                query.isBlank() && reminders
                        ? Texts.of(language, "any reminders or alarms of yours", "תזכורות או שעונים מעוררים שלך")
                        : Texts.of(language, "a task matching \"" + query + "\"", "משימה שמתאימה ל\"" + query + "\""),
                Task::text);
        if (picked instanceof Resolution question) {
            return question;
        }
        Task task = (Task) picked;
        ObjectNode args = args(
                switch (step.action()) {
                    case "update_task" -> "update";
                    case "delete_task" -> "delete";
                    default -> "complete";
                });
        args.put("taskId", task.id());
        if (step.action().equals("update_task")) {
            copy(c, args, "dueDate", "text", "reminder", "reminderRecurrence");
            ZoneId zone = resolvers.zone(context);
            if (c.has("clock") && !args.has("dueDate")) {
                // An hour said bare ("to 10"): on the task's day, the one of 10:00 and 22:00 nearer its time.
                String[] hm = c.get("clock").asText().split(":");
                Optional<ZonedDateTime> was = task.dueAt().map(at -> at.atZone(zone));
                ZonedDateTime now = now(context, zone);
                ZonedDateTime due = was.orElse(now)
                        .withHour(Times.nearest(Integer.parseInt(hm[0]), was))
                        .withMinute(Integer.parseInt(hm[1]))
                        .truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
                if (was.isEmpty() && due.isBefore(now)) {
                    due = due.plusDays(1);
                }
                args.put("dueDate", iso(due));
            }
            if (c.has("delayMinutes")) {
                // "snooze it by 10 minutes": from when it was due, or from now.
                ZonedDateTime from = task.dueAt()
                        .map(at -> at.atZone(zone))
                        .orElse(now(context, zone))
                        .plusMinutes(c.get("delayMinutes").asLong());
                args.put("dueDate", iso(from));
            }
            if (!args.has("dueDate") && !args.has("text") && !args.has("reminderRecurrence")) {
                Optional<TimeExpression> when = resolvers.timeAnswer(context);
                if (when.isEmpty()) {
                    return Resolution.clarify(Texts.of(
                            language,
                            "When should \"" + task.text() + "\" be?",
                            "מתי \"" + task.text() + "\" צריך להיות?"));
                }
                dueOf(when.get(), zone).ifPresent(d -> args.put("dueDate", d));
            }
        }
        return Resolution.execute(MemoTools.TASKS, args);
    }

    /** Those of {@code tasks} due at {@code due}: its minute for a date-time, any time of its day for a date. */
    private static List<Task> dueThen(List<Task> tasks, String due, ZoneId zone) {
        try {
            if (due.length() <= 10) {
                java.time.LocalDate day = java.time.LocalDate.parse(due);
                return tasks.stream()
                        .filter(t -> t.dueAt()
                                .map(at -> at.atZone(zone).toLocalDate().equals(day))
                                .orElse(false))
                        .toList();
            }
            java.time.Instant at =
                    java.time.OffsetDateTime.parse(due).toInstant().truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
            List<Task> thatMinute = tasks.stream()
                    .filter(t -> t.dueAt()
                            .map(d -> d.truncatedTo(java.time.temporal.ChronoUnit.MINUTES)
                                    .equals(at))
                            .orElse(false))
                    .toList();
            return thatMinute;
        } catch (java.time.format.DateTimeParseException e) {
            return tasks;
        }
    }

    /** A task's due date for a time the user answered: an instant to the minute, a day as a date. */
    private static Optional<String> dueOf(TimeExpression t, ZoneId zone) {
        return switch (t) {
            case TimeExpression.Instant i ->
                Optional.of(
                        i.grain().compareTo(dev.weft.time.Grain.DAY) >= 0
                                ? i.value().toLocalDate().toString()
                                : iso(i.value().withZoneSameInstant(zone)));
            case TimeExpression.Interval i -> Optional.of(iso(i.from().withZoneSameInstant(zone)));
            case TimeExpression.Recurrence r -> Optional.of(iso(r.first().withZoneSameInstant(zone)));
        };
    }
}
