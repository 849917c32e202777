package dev.weft.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.Run;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.Memo;
import dev.weft.memo.MemoAssistant;
import dev.weft.plan.PlanMode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code weft memo …}: talk to Memo one message at a time, continue its waiting runs, and move a user's
 * calendar in and out as iCalendar.
 */
@Command(
        name = "memo",
        mixinStandardHelpOptions = true,
        description = "Memo, the personal assistant: ask it something, approve, reject or answer what it waits for,"
                + " export or import a calendar, and connect a mailbox.",
        subcommands = {
            MemoCommand.Ask.class,
            MemoCommand.Approve.class,
            MemoCommand.Reject.class,
            MemoCommand.Answer.class,
            MemoCommand.Undo.class,
            MemoCommand.Calendar.class,
            MemoCommand.RemindersCommand.class,
            MemoMailCommand.class
        })
final class MemoCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The user a command acts for when it names none: {@code WEFT_USER}, else the login name. */
    static String defaultUser() {
        String user = Env.get().get("WEFT_USER");
        if (user == null || user.isBlank()) {
            user = Env.get().getOrDefault("USER", System.getProperty("user.name", "me"));
        }
        return user == null || user.isBlank() ? "me" : user;
    }

    /** What every memo subcommand shares: the store, JSON output, error handling. */
    abstract static class MemoSubcommand extends StoreCommand {
        @Option(names = "--json", description = "Prints one JSON object (see the README for its fields).")
        boolean json;

        @Override
        boolean json() {
            return json;
        }

        int print(PrintWriter out, Memo.Reply reply) {
            if (json) {
                out.println(Json.write(reply.json()));
            } else {
                out.println(reply.text());
                hint(out, reply);
            }
            return ExitCodes.of(reply.run().status());
        }

        /** How to continue a run that waits, for a person at a terminal. */
        static void hint(PrintWriter out, Memo.Reply reply) {
            if (reply.run().status() != RunStatus.WAITING) {
                return;
            }
            String id = reply.run().runId();
            boolean question = reply.run().interrupts().values().stream()
                    .anyMatch(p -> p.path("type").asText().equals("clarify"));
            out.println(
                    question
                            ? "(answer with: weft memo answer " + id + " \"2\")"
                            : "(weft memo approve " + id + "   or   weft memo reject " + id + ")");
        }
    }

    @Command(
            name = "ask",
            mixinStandardHelpOptions = true,
            description = {
                "Sends MESSAGE to Memo and prints its reply; --batch reads JSON lines",
                "{\"message\", \"now\", \"tz\", \"user\", \"mode\"} and prints one result line for each."
            })
    static final class Ask extends MemoSubcommand {
        @Option(names = "--user", paramLabel = "ID", description = "Whose Memo (default: WEFT_USER, else your login).")
        String user;

        @Option(
                names = "--now",
                paramLabel = "ISO",
                description = "The time of the message, e.g. 2026-11-24T10:00:00+02:00.")
        String now;

        @Option(names = "--tz", paramLabel = "ZONE", description = "The user's time zone, e.g. Asia/Jerusalem.")
        String tz;

        @Option(
                names = "--mode",
                paramLabel = "preview|approval|auto",
                description = "auto (default) acts;"
                        + " preview resolves every step and acts on nothing; approval asks before the plan runs.")
        String mode;

        @Option(names = "--batch", paramLabel = "FILE", description = "JSON lines to answer, one result line each.")
        Path batch;

        @Parameters(paramLabel = "MESSAGE", arity = "0..*", description = "What to tell Memo.")
        List<String> words = new ArrayList<>();

        @Override
        int call(RunStore store, PrintWriter out) {
            Memo memo = Storage.memo(store);
            if (batch != null) {
                return batch(store, memo, out);
            }
            Memo.Request request = request(
                    Optional.ofNullable(user),
                    String.join(" ", words),
                    Optional.ofNullable(tz),
                    Optional.ofNullable(mode));
            return print(out, memo.ask(runner(store, Optional.ofNullable(now)), request));
        }

        private int batch(RunStore store, Memo memo, PrintWriter out) {
            List<String> lines;
            try {
                lines = Files.readAllLines(batch);
            } catch (IOException e) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT, "cannot read batch file " + batch + ": " + e.getMessage());
            }
            for (String line : lines) {
                if (line.isBlank()) {
                    continue;
                }
                out.println(Json.write(batchLine(store, memo, line)));
                out.flush();
            }
            return ExitCodes.OK;
        }

        /** The answer to one batch line, or an error object for it; never throws on a bad line. */
        private JsonNode batchLine(RunStore store, Memo memo, String line) {
            try {
                JsonNode request = Json.parse(line, "batch line");
                if (!request.isObject()) {
                    throw new WeftException(ErrorCode.E_BAD_INPUT, "a batch line must be a JSON object");
                }
                if (!request.path("message").isTextual()) {
                    throw new WeftException(ErrorCode.E_BAD_INPUT, "a batch line needs \"message\" (a string)");
                }
                Memo.Request ask = request(
                        text(request, "user").or(() -> Optional.ofNullable(user)),
                        request.get("message").asText(),
                        text(request, "tz").or(() -> Optional.ofNullable(tz)),
                        text(request, "mode").or(() -> Optional.ofNullable(mode)));
                return memo.ask(runner(store, text(request, "now").or(() -> Optional.ofNullable(now))), ask)
                        .json();
            } catch (WeftException e) {
                return error(e.code(), e.getMessage());
            } catch (RuntimeException e) {
                // One line that finds a fault must not cost the lines after it.
                return error(ErrorCode.E_INTERNAL, e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }

        private static JsonNode error(ErrorCode code, String message) {
            ObjectNode error = Json.object();
            ObjectNode body = error.putObject("error");
            body.put("code", code.name());
            body.put("message", message);
            return error;
        }

        private static Optional<String> text(JsonNode node, String field) {
            return node.path(field).isTextual() ? Optional.of(node.get(field).asText()) : Optional.empty();
        }
    }

    /** A message to Memo from the command's words. @throws WeftException {@code E_BAD_INPUT} for any bad part */
    static Memo.Request request(Optional<String> user, String message, Optional<String> tz, Optional<String> mode) {
        if (message.isBlank()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "the message is empty: say something to Memo");
        }
        Optional<ZoneId> zone;
        try {
            zone = tz.map(ZoneId::of);
        } catch (DateTimeException e) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT, "--tz " + tz.get() + ": not a time zone (e.g. Asia/Jerusalem, UTC)");
        }
        PlanMode planMode;
        try {
            planMode = PlanMode.valueOf(mode.orElse("auto").trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "--mode " + mode.get() + ": one of preview, approval, auto");
        }
        String id = user.orElseGet(MemoCommand::defaultUser);
        if (id.isBlank() || id.chars().anyMatch(Character::isISOControl)) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "--user: a user id must be printable and not blank");
        }
        return new Memo.Request(id, message, zone, planMode);
    }

    /** A runner on {@code store} whose clock is {@code now} when given (a fixed time), else the system's. */
    static Runner runner(RunStore store, Optional<String> now) {
        Runner.Builder builder = Storage.runner(store);
        if (now.isPresent()) {
            Instant fixed = parseNow(now.get());
            builder.time(new TimeSource() {
                @Override
                public Instant now() {
                    return fixed;
                }

                @Override
                public void sleep(Duration duration) throws InterruptedException {
                    TimeSource.system().sleep(duration);
                }
            });
        }
        return builder.build();
    }

    private static Instant parseNow(String text) {
        try {
            return OffsetDateTime.parse(text.trim()).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return ZonedDateTime.parse(text.trim()).toInstant();
            } catch (DateTimeParseException again) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT,
                        "--now " + text + ": not an ISO-8601 time with an offset (e.g. 2026-11-24T10:00:00+02:00)");
            }
        }
    }

    /** The user of a stored run, or {@code user} when given. */
    static String owner(RunStore store, String runId, Optional<String> user) {
        Run run = store.findRun(runId).orElseThrow(() -> new NotFoundException("no run '" + runId + "'"));
        return user.orElseGet(() -> run.user()
                .orElseThrow(() -> new WeftException(
                        ErrorCode.E_RUN_STATE, "run '" + runId + "' is not a Memo run (it has no user)")));
    }

    @Command(
            name = "approve",
            mixinStandardHelpOptions = true,
            description = "Approves what a waiting Memo run asks, and continues it.")
    static final class Approve extends MemoSubcommand {
        @Parameters(paramLabel = "RUN_ID")
        String runId;

        @Option(names = "--steps", paramLabel = "ID,…", split = ",", description = "Only these steps (default: all).")
        List<String> steps = new ArrayList<>();

        @Option(names = "--user", paramLabel = "ID", description = "Who approves (default: the run's user).")
        String user;

        @Override
        int call(RunStore store, PrintWriter out) {
            String who = owner(store, runId, Optional.ofNullable(user));
            return print(out, Storage.memo(store).approve(runner(store, Optional.empty()), runId, who, steps));
        }
    }

    @Command(
            name = "undo",
            mixinStandardHelpOptions = true,
            description = "Undoes what a Memo run did (default: your latest run that changed something), and says so.")
    static final class Undo extends MemoSubcommand {
        @Parameters(paramLabel = "RUN_ID", arity = "0..1", description = "The run to undo (default: your latest).")
        String runId;

        @Option(names = "--user", paramLabel = "ID", description = "Whose run (default: WEFT_USER, else your login).")
        String user;

        @Override
        int call(RunStore store, PrintWriter out) {
            String who = user == null ? defaultUser() : user;
            return print(
                    out, Storage.memo(store).undo(runner(store, Optional.empty()), who, Optional.ofNullable(runId)));
        }
    }

    @Command(
            name = "reject",
            mixinStandardHelpOptions = true,
            description = "Rejects what a waiting Memo run asks: nothing of it is done.")
    static final class Reject extends MemoSubcommand {
        @Parameters(paramLabel = "RUN_ID")
        String runId;

        @Option(names = "--user", paramLabel = "ID", description = "Who rejects (default: the run's user).")
        String user;

        @Override
        int call(RunStore store, PrintWriter out) {
            String who = owner(store, runId, Optional.ofNullable(user));
            return print(out, Storage.memo(store).reject(runner(store, Optional.empty()), runId, who));
        }
    }

    @Command(
            name = "answer",
            mixinStandardHelpOptions = true,
            description = "Answers the question a waiting Memo run asked (\"2\", or words).")
    static final class Answer extends MemoSubcommand {
        @Parameters(index = "0", paramLabel = "RUN_ID")
        String runId;

        @Parameters(index = "1..*", paramLabel = "TEXT")
        List<String> words = new ArrayList<>();

        @Option(names = "--user", paramLabel = "ID", description = "Who answers (default: the run's user).")
        String user;

        @Override
        int call(RunStore store, PrintWriter out) {
            String text = String.join(" ", words);
            if (text.isBlank()) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "the answer is empty");
            }
            String who = owner(store, runId, Optional.ofNullable(user));
            return print(out, Storage.memo(store).answer(runner(store, Optional.empty()), runId, who, text));
        }
    }

    /** What the mailbox and calendar commands share: the user and {@code --json}. */
    abstract static class UserSubcommand extends StoreCommand {
        @Option(
                names = "--user",
                paramLabel = "ID",
                description = "Whose mailbox or calendar (default: WEFT_USER, else your login).")
        String user;

        @Option(names = "--json", description = "Prints one JSON object.")
        boolean json;

        @Override
        boolean json() {
            return json;
        }

        String user() {
            return calendarUser(Optional.ofNullable(user));
        }
    }

    /** The user a calendar command acts for: {@code --user}, else the default; printable and not blank. */
    static String calendarUser(Optional<String> user) {
        String id = user.orElseGet(MemoCommand::defaultUser);
        if (id.isBlank() || id.chars().anyMatch(Character::isISOControl)) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "--user: a user id must be printable and not blank");
        }
        return id;
    }

    @Command(
            name = "calendar",
            mixinStandardHelpOptions = true,
            description = "A Memo user's calendar: export it as iCalendar (RFC 5545), import another calendar's"
                    + " events, or connect a CalDAV calendar and keep it in sync both ways.",
            subcommands = {
                MemoCommand.CalendarExport.class,
                MemoCommand.CalendarImport.class,
                MemoCalendarSyncCommand.Connect.class,
                MemoCalendarSyncCommand.Sync.class,
                MemoCalendarSyncCommand.Show.class,
                MemoCalendarSyncCommand.Disconnect.class
            })
    static final class Calendar implements Runnable {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public void run() {
            spec.commandLine().usage(spec.commandLine().getOut());
        }
    }

    @Command(
            name = "reminders",
            mixinStandardHelpOptions = true,
            description = "Lists when the user's reminders fire next, and the last ones that fired (late ones marked).")
    static final class RemindersCommand extends StoreCommand {
        @Option(
                names = "--user",
                paramLabel = "ID",
                description = "Whose reminders (default: WEFT_USER, else your login).")
        String user;

        @Option(
                names = "--json",
                description = "Prints {\"upcoming\": [{source, id, text, at}], \"fired\": [notifications]}.")
        boolean json;

        @Override
        boolean json() {
            return json;
        }

        @Override
        int call(RunStore store, PrintWriter out) {
            String id = user == null ? defaultUser() : user;
            Memo memo = Memo.open(store);
            java.time.ZoneId zone = memo.zoneOf(id).orElse(java.time.ZoneId.systemDefault());
            // What the server's /api/memo/reminders answers: Memo reads its own tables for both.
            JsonNode node = new MemoAssistant(memo)
                    .kept(id, "reminders", java.util.Map.of())
                    .orElseThrow();
            if (json) {
                out.println(Json.write(node));
                return ExitCodes.OK;
            }
            java.time.format.DateTimeFormatter when =
                    java.time.format.DateTimeFormatter.ofPattern("EEE d MMM HH:mm", java.util.Locale.ENGLISH);
            JsonNode upcoming = node.path("upcoming");
            out.println(upcoming.isEmpty() ? "No reminders waiting." : "Next:");
            for (JsonNode u : upcoming) {
                out.println("  "
                        + OffsetDateTime.parse(u.path("at").asText())
                                .atZoneSameInstant(zone)
                                .format(when)
                        + "  " + u.path("text").asText()
                        + (u.path("source").asText().equals("event") ? "  (event)" : ""));
            }
            JsonNode fired = node.path("fired");
            if (!fired.isEmpty()) {
                out.println("Fired:");
                for (JsonNode n : fired) {
                    out.println("  "
                            + Instant.parse(n.path("dueAt").asText())
                                    .atZone(zone)
                                    .format(when) + "  "
                            + n.path("text").asText()
                            + (n.path("late").asBoolean()
                                    ? "  (late, fired "
                                            + Instant.parse(n.path("firedAt").asText())
                                                    .atZone(zone)
                                                    .format(when)
                                            + ")"
                                    : ""));
                }
            }
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "export",
            mixinStandardHelpOptions = true,
            description = "Writes the user's events as iCalendar to FILE.ics, or to standard output without one.")
    static final class CalendarExport extends StoreCommand {
        @Option(
                names = "--user",
                paramLabel = "ID",
                description = "Whose calendar (default: WEFT_USER, else your login).")
        String user;

        @Parameters(
                paramLabel = "FILE.ics",
                arity = "0..1",
                description = "Where to write it (default: standard output).")
        Path file;

        @Override
        boolean json() {
            return false;
        }

        @Override
        int call(RunStore store, PrintWriter out) {
            String id = calendarUser(Optional.ofNullable(user));
            Memo memo = Memo.open(store);
            String text = memo.exportCalendar(id);
            if (file == null) {
                out.print(text);
                return ExitCodes.OK;
            }
            try {
                Files.writeString(file, text, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "cannot write " + file + ": " + e.getMessage());
            }
            int count = memo.eventCount(id);
            out.println("Exported " + count + (count == 1 ? " event" : " events") + " to " + file + ".");
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "import",
            mixinStandardHelpOptions = true,
            description = {
                "Adds the events of FILE.ics to the user's calendar, each under its UID;",
                "events the user already has (the same UID) are left as they are."
            })
    static final class CalendarImport extends StoreCommand {
        @Option(
                names = "--user",
                paramLabel = "ID",
                description = "Whose calendar (default: WEFT_USER, else your login).")
        String user;

        @Option(
                names = "--tz",
                paramLabel = "ZONE",
                description = "The zone of a user Memo does not know yet (default: the system's);"
                        + " floating times are read in the user's zone.")
        String tz;

        @Parameters(paramLabel = "FILE.ics", description = "An iCalendar file.")
        Path file;

        @Override
        boolean json() {
            return false;
        }

        @Override
        int call(RunStore store, PrintWriter out) {
            String id = calendarUser(Optional.ofNullable(user));
            String text = readCalendar(file);
            ZoneId zone;
            try {
                zone = tz == null ? ZoneId.systemDefault() : ZoneId.of(tz);
            } catch (DateTimeException e) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT, "--tz " + tz + ": not a time zone (e.g. Asia/Jerusalem, UTC)");
            }
            int added = Memo.open(store).importCalendar(id, text, zone, Instant.now());
            out.println("Imported " + added + (added == 1 ? " event." : " events."));
            return ExitCodes.OK;
        }

        /**
         * The text of an iCalendar file.
         *
         * @throws WeftException {@code E_BAD_INPUT} for a file that is missing, unreadable, or not iCalendar
         */
        private static String readCalendar(Path file) {
            if (!Files.isRegularFile(file)) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "no file " + file + ": give an iCalendar (.ics) file");
            }
            String text;
            try {
                text = Files.readString(file, StandardCharsets.UTF_8).replaceFirst("^\uFEFF", "");
            } catch (IOException e) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "cannot read " + file + ": " + e.getMessage());
            }
            // Checked before anything is written: a user is not made for a file that is no calendar.
            if (!text.stripLeading().startsWith("BEGIN:VCALENDAR")) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT,
                        file + " is not an iCalendar file: it does not begin with BEGIN:VCALENDAR");
            }
            return text;
        }
    }
}
