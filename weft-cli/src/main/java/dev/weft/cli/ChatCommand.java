package dev.weft.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.kagkarlsson.scheduler.Scheduler;
import dev.weft.assistant.Assistant;
import dev.weft.assistant.Assistants;
import dev.weft.assistant.Message;
import dev.weft.assistant.Notices;
import dev.weft.assistant.Turn;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.Memo;
import dev.weft.memo.MemoAssistant;
import dev.weft.memo.data.Conversation;
import dev.weft.plan.PlanEvents;
import dev.weft.plan.PlanMode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weft chat}: a conversation with an assistant at a terminal, in English or Hebrew — Memo by
 * default, or any other by name ({@code --assistant concierge}), reached through {@link Assistant}. Each
 * line is a message; the steps are shown as they run; an approval is asked inline ("yes"/"כן" goes
 * ahead, "no"/"לא" does not), and a question is answered by the next line. With Memo, while the chat is
 * open, reminders fire (for every user of the store) and the user's are printed as they fall due, with
 * any that fired while no chat was open, the user's connected CalDAV calendar is kept in sync, and the last lines of the
 * conversation are shown. Ctrl-C
 * cancels the run in flight (at the prompt it leaves); "exit" or Ctrl-D leaves.
 */
@Command(
        name = "chat",
        mixinStandardHelpOptions = true,
        description = "Talk to an assistant (Memo, the default: reminders, tasks, lists, mail, notes; or --assistant"
                + " concierge: a shop's sales and support), in English or Hebrew. \"exit\" or Ctrl-D leaves.")
final class ChatCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--assistant",
            paramLabel = "NAME",
            description = "Which assistant (default: memo; the others on this build: see 'weft chat --assistant x').")
    String assistant = Memo.EXECUTOR;

    @Option(names = "--user", paramLabel = "ID", description = "Who talks (default: WEFT_USER, else your login).")
    String user;

    @Option(
            names = "--session",
            paramLabel = "ID",
            description = "Which of your conversations with the assistant (default: your one conversation).")
    String session;

    @Option(names = "--tz", paramLabel = "ZONE", description = "Your time zone (default: this machine's, kept after).")
    String tz;

    @Option(
            names = "--db",
            paramLabel = "URL",
            description = "sqlite:PATH or jdbc:postgresql://… (default: WEFT_DB, else SQLite under WEFT_HOME).")
    String db;

    @Option(
            names = "--watch-mail",
            description = "Announces new email in your inbox as it arrives (IMAP IDLE; a mailbox added with"
                    + " 'weft memo mail add').")
    boolean watchMail;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        String who = user == null ? MemoCommand.defaultUser() : user;
        AtomicReference<String> inFlight = new AtomicReference<>();
        if (!assistant.equals(Memo.EXECUTOR)) {
            return chatWith(out, who, inFlight);
        }
        try (RunStore store = Storage.open(db)) {
            Memo memo = Storage.memo(store);
            SpokenWords words = new SpokenWords(out, "memo");
            Runner runner = chatRunner(store, out, inFlight, words);
            Scheduler reminders = memo.reminders()
                    .start(
                            Duration.ofSeconds(1),
                            "weft-chat-" + ProcessHandle.current().pid());
            // Due reminders through Memo's Assistant interface: the chat reads no table of Memo's for them.
            Notices due = new MemoAssistant(memo).notices().orElseThrow();
            Thread notices =
                    Thread.ofPlatform().daemon().name("weft-chat-reminders").start(() -> printDue(out, due, who));
            AutoCloseable mail = watchMail ? watchMail(out, memo, who) : () -> {};
            AutoCloseable calendar = syncCalendar(out, memo, who);
            try {
                return converse(out, memo, runner, who, inFlight, words);
            } finally {
                notices.interrupt();
                reminders.stop();
                try {
                    mail.close();
                    calendar.close();
                } catch (Exception ignored) {
                    // leaving: the watch's connection and the sync go with the process
                }
            }
        } catch (IOException e) {
            spec.commandLine().getErr().println("weft: cannot read the terminal: " + e.getMessage());
            return ExitCodes.FAILED;
        } catch (WeftException e) {
            return WorkflowCommand.failure(spec, false, e);
        }
    }

    /**
     * A runner whose runs' steps print as they go, the model's words of a reply among them, and whose run
     * in flight Ctrl-C cancels.
     */
    private static Runner chatRunner(
            RunStore store, PrintWriter out, AtomicReference<String> inFlight, SpokenWords words) {
        Runner runner = Storage.runner(store)
                .listener(event -> {
                    inFlight.compareAndSet(null, event.runId());
                    progress(out, event);
                    words.onEvent(event);
                })
                .build();
        onInterrupt(out, runner, inFlight);
        return runner;
    }

    /** A chat with an assistant other than Memo, through the {@link Assistant} interface alone. */
    private int chatWith(PrintWriter out, String who, AtomicReference<String> inFlight) {
        try (RunStore store = Storage.open(db)) {
            if (watchMail) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT, "--watch-mail is Memo's; assistant '" + assistant + "' reads no mail");
            }
            Optional<ZoneId> zone = zone();
            Assistant chosen = Assistants.open(assistant, Storage.environment(store));
            SpokenWords words = new SpokenWords(out, chosen.name());
            Runner runner = chatRunner(store, out, inFlight, words);
            String conversation = session == null ? who : session;
            out.println(
                    chosen.description() + " — " + who + ". Write in English or Hebrew; \"exit\" or Ctrl-D leaves.");
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while (prompt(out) && (line = in.readLine()) != null && !leaves(line)) {
                if (line.isBlank()) {
                    continue;
                }
                try {
                    Turn turn = chosen.converse(
                            runner, new Message(who, conversation, line, zone, PlanMode.AUTO, Optional.empty()));
                    words.finish(turn.text());
                } catch (WeftException e) {
                    words.abandon();
                    out.println(chosen.name() + "> (" + e.code() + ") " + e.getMessage());
                } finally {
                    inFlight.set(null);
                }
                out.flush();
            }
            out.println();
            return ExitCodes.OK;
        } catch (IOException e) {
            spec.commandLine().getErr().println("weft: cannot read the terminal: " + e.getMessage());
            return ExitCodes.FAILED;
        } catch (WeftException e) {
            return WorkflowCommand.failure(spec, false, e);
        }
    }

    private Optional<ZoneId> zone() {
        if (tz == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(ZoneId.of(tz));
        } catch (java.time.DateTimeException e) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT, "--tz " + tz + ": not a time zone (e.g. Asia/Jerusalem, UTC)");
        }
    }

    private int converse(
            PrintWriter out, Memo memo, Runner runner, String who, AtomicReference<String> inFlight, SpokenWords words)
            throws IOException {
        out.println("Memo — " + who + ". Write in English or Hebrew; \"exit\" or Ctrl-D leaves. (\"help\" / \"עזרה\")");
        for (Conversation.Message earlier : memo.data().conversation().recent(who, 4)) {
            out.println("  (earlier) " + (earlier.role() == Conversation.Role.USER ? "you> " : "memo> ")
                    + earlier.text().replace("\n", " / "));
        }
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Optional<Memo.Reply> waiting = Optional.empty();
        String line;
        while (prompt(out) && (line = in.readLine()) != null && !leaves(line)) {
            if (line.isBlank()) {
                continue;
            }
            try {
                Memo.Reply reply = next(memo, runner, who, line, waiting);
                words.finish(reply.text());
                waiting = reply.run().status() == RunStatus.WAITING ? Optional.of(reply) : Optional.empty();
            } catch (WeftException e) {
                words.abandon();
                out.println("memo> (" + e.code() + ") " + e.getMessage());
            } finally {
                inFlight.set(null);
            }
            out.flush();
        }
        out.println();
        return ExitCodes.OK;
    }

    /** Prints each new email of the user's inbox as it arrives; without a mailbox, says how to add one. */
    private static AutoCloseable watchMail(PrintWriter out, Memo memo, String who) {
        Optional<dev.weft.memo.data.User> known = memo.data().findUser(who);
        java.time.ZoneId zone = known.map(dev.weft.memo.data.User::zone).orElse(java.time.ZoneId.systemDefault());
        boolean hebrew = known.map(u -> u.language().equals("he")).orElse(false);
        try {
            return new dev.weft.memo.data.MailOperations(memo.data()).watch(who, zone, email -> {
                synchronized (out) {
                    out.print("\r");
                    out.println((hebrew ? "📬 מייל חדש — " : "📬 New email — ")
                            + email.path("from").asText() + ": "
                            + email.path("subject").asText());
                    out.print("you> ");
                    out.flush();
                }
            });
        } catch (WeftException e) {
            out.println("  (" + e.getMessage() + ")");
            return () -> {};
        }
    }

    /**
     * Keeps the user's connected calendar in sync in the background (conflicts are printed as the
     * notifications they are); each new error of a failing sync is printed once.
     */
    private static AutoCloseable syncCalendar(PrintWriter out, Memo memo, String who) {
        if (memo.data().calendars().find(who).isEmpty()) {
            return () -> {};
        }
        java.util.concurrent.atomic.AtomicReference<String> said =
                new java.util.concurrent.atomic.AtomicReference<>("");
        return memo.calendar().start(dev.weft.memo.CalendarSync.INTERVAL, () -> List.of(who), (user, e) -> {
            String line = "  (calendar sync: " + e.code() + " " + e.getMessage() + ")";
            if (!line.equals(said.getAndSet(line))) {
                synchronized (out) {
                    out.print("\r");
                    out.println(line);
                    out.print("you> ");
                    out.flush();
                }
            }
        });
    }

    /** Ctrl-C: cancels the run in flight, or leaves at the prompt. */
    private static void onInterrupt(PrintWriter out, Runner runner, AtomicReference<String> inFlight) {
        CtrlC.handle(() -> {
            String runId = inFlight.get();
            if (runId == null) {
                out.println();
                out.flush();
                Runtime.getRuntime().halt(ExitCodes.INTERRUPTED);
            }
            try {
                runner.cancel(runId);
                out.println("  (cancelling " + runId + ")");
            } catch (WeftException e) {
                out.println("  (" + e.getMessage() + ")");
            }
            out.flush();
        });
    }

    /** Prints the user's reminders as they fall due, and any that fell due while no chat was open. */
    private static void printDue(PrintWriter out, Notices notices, String who) {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                List<ObjectNode> due = notices.unshown(who);
                if (!due.isEmpty()) {
                    synchronized (out) {
                        out.print("\r");
                        for (ObjectNode n : due) {
                            out.println(n.path("notice").asText());
                        }
                        out.print("you> ");
                        out.flush();
                    }
                    notices.shown(
                            who, due.stream().map(n -> n.path("id").asText()).toList(), Instant.now());
                }
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // The store is closing, or busy for a moment: the next look will do.
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }
    }

    /** What a line does: approves, rejects or answers what the last run waits for, or is a new message. */
    private Memo.Reply next(Memo memo, Runner runner, String who, String line, Optional<Memo.Reply> waiting) {
        return memo.converse(
                runner,
                MemoCommand.request(Optional.of(who), line, Optional.ofNullable(tz), Optional.empty()),
                waiting.map(Memo.Reply::run));
    }

    private static boolean prompt(PrintWriter out) {
        synchronized (out) {
            out.print("you> ");
            out.flush();
        }
        return true;
    }

    /** The plan and each step as they happen, on the line under the message. */
    private static void progress(PrintWriter out, Event event) {
        String step = event.data().path("stepId").asText("");
        switch (event.type()) {
            case PlanEvents.PLAN_GROUPS -> {
                StringBuilder groups = new StringBuilder("  plan:");
                event.data().forEach(g -> groups.append(" ").append(g.path("steps")));
                out.println(groups);
            }
            case PlanEvents.TOOL_CALLED ->
                out.println("  → " + step + " " + event.data().path("tool").asText() + " "
                        + event.data().path("args").path("operation").asText(""));
            case PlanEvents.STEP_EXECUTED ->
                out.println("  " + (event.data().path("status").asText().equals("SUCCEEDED") ? "✓ " : "✗ ") + step);
            default -> {
                return;
            }
        }
        out.flush();
    }

    /** Whether a line at the prompt asks to leave the chat rather than say something to the assistant. */
    static boolean leaves(String line) {
        return switch (line.strip().toLowerCase(Locale.ROOT)) {
            case "exit", "quit", "/exit", "/quit", "יציאה" -> true;
            default -> false;
        };
    }
}
