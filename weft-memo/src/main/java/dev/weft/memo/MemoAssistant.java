package dev.weft.memo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.kagkarlsson.scheduler.Scheduler;
import dev.weft.assistant.Assistant;
import dev.weft.assistant.BackgroundService;
import dev.weft.assistant.ConversationLine;
import dev.weft.assistant.Message;
import dev.weft.assistant.Notices;
import dev.weft.assistant.Question;
import dev.weft.assistant.Turn;
import dev.weft.core.Event;
import dev.weft.core.Graph;
import dev.weft.core.Json;
import dev.weft.core.Run;
import dev.weft.core.RunResult;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.memo.data.Conversation;
import dev.weft.memo.data.MailOperations;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.ToolRegistry;
import dev.weft.workflow.A2aAgents;
import java.time.Duration;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/** Memo as an {@link Assistant}: what the command line, the server and MCP reach it through. Thread-safe. */
public final class MemoAssistant implements Assistant {
    /** A Memo and the agents it was made to ask. */
    private record Asking(A2aAgents agents, Memo memo) {}

    private final Memo base;
    private final Optional<Supplier<A2aAgents>> agents;
    private final Function<String, Optional<String>> settings;
    private final AtomicReference<Asking> asking = new AtomicReference<>();

    public MemoAssistant(Memo memo) {
        this.base = Objects.requireNonNull(memo, "memo");
        this.agents = Optional.empty();
        this.settings = name -> Optional.empty();
    }

    /**
     * Memo asking the remote agents {@code agents} gives at each turn ({@link
     * dev.weft.workflow.A2aAgentsSource#current}: {@code agents.json} as it is now), each one's key read from
     * {@code settings}; a new list of agents is a Memo made anew for it, sharing {@code memo}'s data.
     */
    public MemoAssistant(Memo memo, Supplier<A2aAgents> agents, Function<String, Optional<String>> settings) {
        this.base = Objects.requireNonNull(memo, "memo");
        this.agents = Optional.of(agents);
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /**
     * The Memo behind this assistant, for what only Memo has (reminders, mail, the calendar): the one that
     * asks the agents configured now.
     */
    public Memo memo() {
        if (agents.isEmpty()) {
            return base;
        }
        A2aAgents now = agents.get().get();
        Asking made = asking.get();
        if (made == null || made.agents() != now) {
            // Two turns that both see a new list may both make a Memo for it: either one serves.
            made = new Asking(now, base.withAgents(now, settings));
            asking.set(made);
        }
        return made.memo();
    }

    @Override
    public String name() {
        return Memo.EXECUTOR;
    }

    @Override
    public String introduction() {
        return "Memo — your calendar, reminders, tasks, lists, email and notes";
    }

    @Override
    public String description() {
        return "Memo: a personal assistant for calendar, reminders, tasks, lists, email and notes, in English and"
                + " Hebrew";
    }

    @Override
    public Turn converse(Runner runner, Message message) {
        Memo.Request request = new Memo.Request(message.user(), message.text(), message.zone(), message.mode());
        if (message.runId().isPresent()) {
            request = request.withRunId(message.runId().get());
        }
        Memo memo = memo();
        Optional<RunResult> waiting = memo.waiting(runner, message.user());
        long before = waiting.map(w -> lastSequence(runner, w.runId())).orElse(0L);
        Memo.Reply reply = memo.converse(runner, request, waiting);
        boolean continued =
                waiting.map(w -> w.runId().equals(reply.run().runId())).orElse(false);
        return turn(reply, usage(runner, reply.run(), continued ? before : 0, !continued));
    }

    /** Memo's {@code ask}: a new run, its mode (preview, approval) kept, whatever the conversation waits on. */
    @Override
    public Turn ask(Runner runner, Message message) {
        Memo.Request request = new Memo.Request(message.user(), message.text(), message.zone(), message.mode());
        if (message.runId().isPresent()) {
            request = request.withRunId(message.runId().get());
        }
        Memo.Reply reply = memo().ask(runner, request);
        return turn(reply, usage(runner, reply.run(), 0, true));
    }

    /** Memo keeps one conversation per user, whatever the session: its last lines. */
    @Override
    public List<ConversationLine> history(String user, String session, int count) {
        return memo().data().conversation().recent(user, count).stream()
                .map(m -> new ConversationLine(
                        m.role() == Conversation.Role.USER
                                ? ConversationLine.Speaker.PERSON
                                : ConversationLine.Speaker.ASSISTANT,
                        m.text(),
                        m.at()))
                .toList();
    }

    /** The background sync of users' connected CalDAV calendars ({@link CalendarSync}). */
    public static final String CALENDAR_SYNC = "calendar-sync";

    /** The watch of one user's inbox, announcing each new email (a chat's {@code --watch-mail}). */
    public static final String MAIL_WATCH = "mail-watch";

    @Override
    public void warmUp() {
        memo().warmUp();
    }

    @Override
    public List<BackgroundService> services() {
        return List.of(
                new BackgroundService(
                        CALENDAR_SYNC,
                        "keeps users' connected CalDAV calendars in sync both ways",
                        CalendarSync.INTERVAL,
                        false,
                        this::syncCalendars),
                new BackgroundService(
                        MAIL_WATCH,
                        "announces each new email of a user's inbox as it arrives (IMAP IDLE)",
                        Duration.ofSeconds(30),
                        true,
                        (every, scope, tell) -> watchMail(scope, tell)));
    }

    private AutoCloseable syncCalendars(Duration every, BackgroundService.Scope scope, Consumer<String> tell) {
        return switch (scope) {
            case BackgroundService.Scope.Everyone everyone -> {
                CalendarSync calendar = memo().calendar();
                yield calendar.start(
                        every,
                        calendar::connectedUsers,
                        (user, e) -> tell.accept("calendar sync of " + user + ": " + e.code() + " " + e.getMessage()));
            }
            case BackgroundService.Scope.OneUser one -> {
                if (memo().data().calendars().find(one.user()).isEmpty()) {
                    yield () -> {};
                }
                // A failing sync fails every round: its person hears each new error once.
                AtomicReference<String> said = new AtomicReference<>("");
                yield memo().calendar().start(every, () -> List.of(one.user()), (user, e) -> {
                    String line = "(calendar sync: " + e.code() + " " + e.getMessage() + ")";
                    if (!line.equals(said.getAndSet(line))) {
                        tell.accept(line);
                    }
                });
            }
        };
    }

    private AutoCloseable watchMail(BackgroundService.Scope scope, Consumer<String> tell) {
        if (!(scope instanceof BackgroundService.Scope.OneUser one)) {
            tell.accept("(the mail watch follows one user's inbox: name the user)");
            return () -> {};
        }
        Optional<dev.weft.memo.data.User> known = memo().data().findUser(one.user());
        ZoneId zone = known.map(dev.weft.memo.data.User::zone).orElse(ZoneId.systemDefault());
        boolean hebrew = known.map(u -> u.language().equals("he")).orElse(false);
        try {
            return new MailOperations(memo().data())
                    .watch(
                            one.user(),
                            zone,
                            email -> tell.accept((hebrew ? "📬 מייל חדש — " : "📬 New email — ")
                                    + email.path("from").asText() + ": "
                                    + email.path("subject").asText()));
        } catch (WeftException e) {
            tell.accept("(" + e.getMessage() + ")");
            return () -> {};
        }
    }

    /** Memo keeps one conversation per user: its waiting run is continued whatever the session. */
    @Override
    public Optional<String> continues(Runner runner, String user, String session) {
        return memo().waiting(runner, user).map(RunResult::runId);
    }

    @Override
    public Turn approve(Runner runner, String user, String runId, List<String> steps) {
        long before = lastSequence(runner, runId);
        Memo.Reply reply = memo().approve(runner, runId, user, steps);
        return turn(reply, usage(runner, reply.run(), before, false));
    }

    @Override
    public Turn reject(Runner runner, String user, String runId) {
        long before = lastSequence(runner, runId);
        Memo.Reply reply = memo().reject(runner, runId, user);
        return turn(reply, usage(runner, reply.run(), before, false));
    }

    @Override
    public Turn answer(Runner runner, String user, String runId, String text) {
        long before = lastSequence(runner, runId);
        Memo.Reply reply = memo().answer(runner, runId, user, text);
        return turn(reply, usage(runner, reply.run(), before, false));
    }

    @Override
    public Map<String, Question> questions(Runner runner, String user, String runId) {
        Memo.Reply reply = memo().replyOf(runner, runId, user);
        Map<String, Question> asked = new LinkedHashMap<>();
        for (JsonNode resolution : reply.json().path("resolutions")) {
            String node = "step:" + resolution.path("stepId").asText();
            // The words Memo's own approval card and chat show: an approval's sentence, a question.
            String words = resolution.path("type").asText().equals("clarify")
                    ? resolution.path("question").asText()
                    : resolution.path("says").asText();
            if (reply.run().interrupts().containsKey(node) && !words.isBlank()) {
                asked.put(node, new Question(words, reply.language()));
            }
        }
        return asked;
    }

    @Override
    public Optional<Turn> turnOf(Runner runner, String user, String runId) {
        return Optional.of(turn(memo().replyOf(runner, runId, user)));
    }

    private static long lastSequence(Runner runner, String runId) {
        List<Event> events = runner.store().events(runId);
        return events.isEmpty() ? 0 : events.get(events.size() - 1).sequence();
    }

    /**
     * The model tokens of one turn: the calls its run made after event {@code after} (the turn's part
     * of a run it continued), and the planner's call when the turn planned the run (made before the run
     * started, its tokens kept in the run's input).
     */
    static Turn.Usage usage(Runner runner, RunResult run, long after, boolean planned) {
        Turn.Usage calls = Turn.Usage.ofModelCalls(runner.store().events(run.runId()).stream()
                .filter(e -> e.sequence() > after)
                .toList());
        if (!planned) {
            return calls;
        }
        JsonNode tokens = run.run().input().path("input").path("planner").path("tokens");
        return calls.plus(new Turn.Usage(
                Math.max(0, tokens.path("input").asLong(0)),
                Math.max(0, tokens.path("output").asLong(0))));
    }

    @Override
    public Turn undo(Runner runner, String user, Optional<String> runId) {
        return turn(memo().undo(runner, user, runId));
    }

    /**
     * {@code reminders} ({@code {upcoming, fired}}), {@code tasks}, {@code events}, {@code lists}, and
     * {@code memories} (those matching {@code q} best, else the latest; {@code limit}, default 20).
     */
    @Override
    public Optional<JsonNode> kept(String user, String kind, Map<String, String> query) {
        return switch (kind) {
            case "reminders" -> Optional.of(reminders(user));
            case "tasks" ->
                Optional.of(listed(
                        "tasks",
                        memo().data().tasks().all(user).stream()
                                .map(dev.weft.memo.data.Task::toJson)
                                .toList()));
            case "events" -> {
                ZoneId zone = zoneOf(user);
                yield Optional.of(listed(
                        "events",
                        memo().data().events().all(user).stream()
                                .map(event -> (JsonNode) event.toJson(zone))
                                .toList()));
            }
            case "lists" -> Optional.of(listed("lists", memo().data().lists().all(user)));
            case "memories" ->
                Optional.of(memo().memories(
                                user,
                                Optional.ofNullable(query.get("q")).filter(q -> !q.isBlank()),
                                Integer.parseInt(query.getOrDefault("limit", "20"))));
            default -> Optional.empty();
        };
    }

    private ObjectNode reminders(String user) {
        ZoneId zone = zoneOf(user);
        ObjectNode node = Json.object();
        ArrayNode next = node.putArray("upcoming");
        for (Reminders.Upcoming u : memo().reminders().upcoming(user)) {
            next.addObject()
                    .put("source", u.source())
                    .put("id", u.id())
                    .put("text", u.text())
                    .put("at", u.at().atZone(zone).toOffsetDateTime().toString());
        }
        ArrayNode fired = node.putArray("fired");
        memo().data().notifications().recent(user, 10).forEach(n -> fired.add(n.toJson()));
        return node;
    }

    private ZoneId zoneOf(String user) {
        return memo().data().findUser(user).map(dev.weft.memo.data.User::zone).orElse(ZoneId.systemDefault());
    }

    private static ObjectNode listed(String name, List<? extends JsonNode> items) {
        ObjectNode node = Json.object();
        node.putArray(name).addAll(items);
        return node;
    }

    @Override
    public Optional<Notices> notices() {
        return Optional.of(new Notices() {
            @Override
            public List<Notices.Notice> recent(String user, int count) {
                return memo().data().notifications().recent(user, count).stream()
                        .map(n -> new Notices.Notice(n.user(), n.id(), memo().notice(n), n.sourceId(), n.firedAt()))
                        .toList();
            }

            @Override
            public Optional<ObjectNode> describe(String user, String id) {
                return memo().data().notifications().find(user, id).map(this::described);
            }

            @Override
            public List<ObjectNode> unshown(String user) {
                return memo().data().notifications().pending(user).stream()
                        .map(this::described)
                        .toList();
            }

            @Override
            public void shown(String user, List<String> ids, java.time.Instant at) {
                memo().data().notifications().delivered(user, ids, at);
            }

            private ObjectNode described(dev.weft.memo.data.Notifications.Notification n) {
                ObjectNode json = n.toJson();
                json.put("notice", memo().notice(n));
                return json;
            }

            @Override
            public void onNotice(Runnable listener) {
                memo().reminders().onFire(notification -> listener.run());
            }

            @Override
            public void onNoticeOf(Consumer<String> listener) {
                memo().reminders().onFire(notification -> listener.accept(notification.user()));
            }

            @Override
            public AutoCloseable start(String processName) {
                Scheduler scheduler = memo().reminders().start(Duration.ofSeconds(1), processName);
                return scheduler::stop;
            }
        });
    }

    @Override
    public ToolRegistry tools() {
        return memo().executor().tools();
    }

    @Override
    public boolean owns(Run run) {
        return PlanExecutor.isPlanRun(run)
                && PlanExecutor.executorName(run).filter(Memo.EXECUTOR::equals).isPresent();
    }

    @Override
    public Optional<Graph> graphOf(Run run) {
        return owns(run) ? memo().executor().graphOf(run) : Optional.empty();
    }

    static Turn turn(Memo.Reply reply) {
        return turn(reply, Turn.Usage.NONE);
    }

    static Turn turn(Memo.Reply reply, Turn.Usage usage) {
        return new Turn(reply.language(), reply.run(), reply.text(), reply.json(), usage);
    }
}
