package dev.weft.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.assistant.Assistant;
import dev.weft.assistant.Assistants;
import dev.weft.assistant.BackgroundService;
import dev.weft.assistant.ConversationLine;
import dev.weft.assistant.Message;
import dev.weft.assistant.Notices;
import dev.weft.assistant.Turn;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.PlanEvents;
import dev.weft.plan.PlanMode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weft chat}: a conversation with an assistant at a terminal, in English or Hebrew — Memo by
 * default, or any other by name ({@code --assistant concierge}), reached through {@link Assistant} alone,
 * the same for every assistant. Each line is a message; the steps are shown as they run; an approval is
 * asked inline ("yes"/"כן" goes ahead, "no"/"לא" does not), and a question is answered by the next line.
 * While the chat is open, the assistant's notices are made (Memo's reminders fire, for every user of the
 * store) and the user's are printed as they fall due, with any made while no chat was open; its
 * background services run for the user (Memo: their connected CalDAV calendar kept in sync; with {@code
 * --watch-mail}, their inbox watched); and the last lines of the conversation are shown. Ctrl-C cancels
 * the run in flight (at the prompt it leaves); "exit" or Ctrl-D leaves.
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
    String assistant = "memo";

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
        try (RunStore store = Storage.open(db)) {
            Optional<ZoneId> zone = zone();
            Assistant chosen = Assistants.open(assistant, Storage.environment(store));
            Optional<BackgroundService> mail = Optional.empty();
            if (watchMail) {
                mail = Optional.of(chosen.service(MAIL_WATCH)
                        .orElseThrow(() -> new WeftException(
                                ErrorCode.E_BAD_INPUT,
                                "--watch-mail: assistant '" + chosen.name() + "' watches no mailbox")));
            }
            SpokenWords words = new SpokenWords(out, chosen.name());
            Runner runner = chatRunner(store, out, inFlight, words);
            // What the assistant does unasked and in the background, through its Assistant interface:
            // the chat names no assistant and reads none of their tables.
            List<AutoCloseable> running = new ArrayList<>();
            Optional<Thread> due = Optional.empty();
            try {
                if (chosen.notices().isPresent()) {
                    Notices notices = chosen.notices().get();
                    running.add(
                            notices.start("weft-chat-" + ProcessHandle.current().pid()));
                    due = Optional.of(Thread.ofPlatform()
                            .daemon()
                            .name("weft-chat-notices")
                            .start(() -> printDue(out, notices, who)));
                }
                Consumer<String> tell = line -> aside(out, line);
                for (BackgroundService service : chosen.services()) {
                    if (!service.onRequest()) {
                        running.add(service.start(BackgroundService.Scope.of(who), tell));
                    }
                }
                if (mail.isPresent()) {
                    running.add(mail.get().start(BackgroundService.Scope.of(who), tell));
                }
                return converse(out, chosen, runner, who, zone, inFlight, words);
            } finally {
                due.ifPresent(Thread::interrupt);
                for (AutoCloseable handle : running.reversed()) {
                    try {
                        handle.close();
                    } catch (Exception ignored) {
                        // leaving: the watch's connection and the sync go with the process
                    }
                }
            }
        } catch (IOException e) {
            spec.commandLine().getErr().println("weft: cannot read the terminal: " + e.getMessage());
            return ExitCodes.FAILED;
        } catch (WeftException e) {
            return WorkflowCommand.failure(spec, false, e);
        }
    }

    /** The background service that announces new email, which {@code --watch-mail} asks for. */
    static final String MAIL_WATCH = "mail-watch";

    /** A line the chat is told while the person may be typing: printed above a fresh prompt. */
    private static void aside(PrintWriter out, String line) {
        synchronized (out) {
            out.print("\r");
            out.println("  " + line);
            out.print("you> ");
            out.flush();
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

    /** The chat's first line: who the assistant is, who the person is to it, and how to leave. */
    static String greeting(Assistant chosen, String who) {
        return chosen.introduction() + ". You are " + who
                + ". Write in English or Hebrew; type exit or press Ctrl-D to leave.";
    }

    /**
     * The conversation with {@code chosen}, through the {@link Assistant} interface alone: where it left
     * off, then each line a turn (a "yes" to what waits approves it, an answer answers a question).
     */
    private int converse(
            PrintWriter out,
            Assistant chosen,
            Runner runner,
            String who,
            Optional<ZoneId> zone,
            AtomicReference<String> inFlight,
            SpokenWords words)
            throws IOException {
        String conversation = session == null ? who : session;
        out.println(greeting(chosen, who));
        for (ConversationLine earlier : chosen.history(who, conversation, 4)) {
            out.println("  (earlier) "
                    + (earlier.speaker() == ConversationLine.Speaker.PERSON ? "you> " : chosen.name() + "> ")
                    + earlier.text().replace("\n", " / "));
        }
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
