package dev.weft.memo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.llm.Model;
import dev.weft.llm.ModelTransientException;
import dev.weft.llm.ModelUnavailableException;
import dev.weft.memo.data.Conversation;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.Notifications.Notification;
import dev.weft.memo.data.User;
import dev.weft.memo.internal.MemoResolvers;
import dev.weft.memo.internal.Replies;
import dev.weft.memo.internal.Texts;
import dev.weft.plan.ChangeGuard;
import dev.weft.plan.Plan;
import dev.weft.plan.PlanDecision;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.PlanMode;
import dev.weft.plan.PlanParser;
import dev.weft.plan.PlanRequest;
import dev.weft.plan.PlanStep;
import dev.weft.plan.PlanSummary;
import dev.weft.plan.ResolverRegistry;
import dev.weft.plan.StepOutcome;
import dev.weft.plan.Tool;
import dev.weft.plan.ToolRegistry;
import dev.weft.workflow.A2aAgents;
import dev.weft.workflow.A2aSendTool;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Memo, the personal assistant: a message becomes a plan (the {@link Planner}), the plan runs on the
 * plan runtime with Memo's resolvers and tools for the message's user, and the reply says, in the
 * user's language, what was done, what could not be, and what waits for them. A run that waits (an
 * approval, a question) is continued with {@link #approve}, {@link #reject} or {@link #answer}, from
 * this process or another. Thread-safe.
 */
public final class Memo {
    /** The name Memo's plan runs are stored under, for processes that continue them. */
    public static final String EXECUTOR = "memo";

    /**
     * Words that say yes only to something waiting ("ok", "sure", "סבבה"; with nothing waiting they only
     * take note), beside {@link dev.weft.language.BareAnswers#saysYes}.
     */
    private static final Pattern YES_TO_WHAT_WAITS =
            Pattern.compile("(?iU)^\\s*(?:ok|okay|sure|יאללה|סבבה)\\s*[.!]*\\s*$");
    /** A line that answers a question with neither a choice nor a request: "maybe", "what?", "אולי". */
    private static final Pattern UNCLEAR = Pattern.compile(
            "(?iU)^\\s*(?:maybe|perhaps|not sure|i'?m not sure|i don'?t know|idk|dunno|what|huh|hmm+|eh|which|why"
                    + "|what do you mean|say again|sorry|\\?+|אולי|לא יודע|לא יודעת|לא בטוח|לא בטוחה|מה|אה|הממ+|למה"
                    + "|מה זאת אומרת|סליחה|איזה)\\s*[.!?]*\\s*$");

    /**
     * Words that say no only to something waiting ("undo", "cancel it", "בטל את זה"; with nothing waiting
     * they ask for something), beside {@link dev.weft.language.BareAnswers#saysNo}.
     */
    private static final Pattern NO_TO_WHAT_WAITS = Pattern.compile(
            "(?iU)^\\s*(?:don'?t|cancel (?:it|that)|undo(?: (?:it|that))?|בטל את זה|תבטל את זה)\\s*[.!]*\\s*$");

    /** Whether {@code message} says yes to what waits for it. */
    private static boolean saysYes(String message) {
        return dev.weft.language.BareAnswers.saysYes(message)
                || YES_TO_WHAT_WAITS.matcher(message).matches();
    }

    /** Whether {@code message} says no to what waits for it. */
    private static boolean saysNo(String message) {
        return dev.weft.language.BareAnswers.saysNo(message)
                || NO_TO_WHAT_WAITS.matcher(message).matches();
    }

    /**
     * A message to Memo: whose, what, their zone (for a new user, or to change it), how to run it, and
     * optionally the id its run is to have (so that a caller can follow the run's events as it goes).
     */
    public record Request(String user, String message, Optional<ZoneId> zone, PlanMode mode, Optional<String> runId) {
        public Request {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(zone, "zone");
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(runId, "runId");
        }

        public Request(String user, String message, Optional<ZoneId> zone, PlanMode mode) {
            this(user, message, zone, mode, Optional.empty());
        }

        /** This message, its run to have the id {@code runId}. */
        public Request withRunId(String runId) {
            return new Request(user, message, zone, mode, Optional.of(runId));
        }
    }

    /** What Memo did with a message: the run, the plan, the reply, and all of it as JSON ({@code memo ask --json}). */
    public record Reply(String language, RunResult run, Plan plan, String text, ObjectNode json) {}

    private final MemoData data;
    private final Planner planner;
    private final PlanExecutor executor;
    private final Reminders reminders;
    private final CalendarSync calendar;
    private final Supplier<Instant> clock;
    private final ResolverRegistry resolvers;
    private final Planner offline;
    /** The planner as it was given, before it was told of any agents: what {@link #withAgents} starts from. */
    private final Planner given;

    private final AgentRequests.Configured agents;

    private Memo(MemoData data, Planner planner, Supplier<Instant> clock) {
        this(data, planner, clock, new MemoResolvers(data).registry());
    }

    private Memo(MemoData data, Planner planner, Supplier<Instant> clock, ResolverRegistry resolvers) {
        this(data, planner, clock, resolvers, AgentRequests.Configured.none());
    }

    private Memo(
            MemoData data,
            Planner planner,
            Supplier<Instant> clock,
            ResolverRegistry resolvers,
            AgentRequests.Configured agents) {
        this(data, planner, clock, resolvers, agents, new Reminders(data, clock));
    }

    private Memo(
            MemoData data,
            Planner planner,
            Supplier<Instant> clock,
            ResolverRegistry resolvers,
            AgentRequests.Configured agents,
            Reminders reminders) {
        this.data = data;
        this.given = planner;
        this.agents = agents;
        this.planner = agents.agents().isEmpty() ? planner : AgentRequests.planner(planner, agents.agents());
        // Without its model, Memo still knows the agents: a request to one is read offline too.
        this.offline = agents.agents().isEmpty() ? OFFLINE : AgentRequests.planner(OFFLINE, agents.agents());
        this.clock = clock;
        this.resolvers = resolvers;
        this.reminders = reminders;
        this.calendar = new CalendarSync(data, reminders, clock);
        this.executor = PlanExecutor.builder()
                .name(EXECUTOR)
                .resolvers(agents.agents().isEmpty() ? resolvers : resolvers.with(A2aSendTool.resolver()))
                .tools(
                        agents.agents().isEmpty()
                                ? tools(data, reminders)
                                : tools(data, reminders).with(agents.tool()))
                .build();
    }

    /**
     * This Memo able to ask the remote A2A agents {@code agents} ({@code a2a.send}), each one's key read
     * from {@code settings} by the name its configuration gives: its planners plan a step for a request
     * to one by name, and its executor runs it; the agents this Memo knew before are forgotten. Its data
     * and reminders are this Memo's. No agents, and none known before: this Memo.
     */
    public Memo withAgents(A2aAgents agents, Function<String, Optional<String>> settings) {
        if (agents.isEmpty() && this.agents.agents().isEmpty()) {
            return this;
        }
        return new Memo(
                data,
                given,
                clock,
                resolvers,
                agents.isEmpty() ? AgentRequests.Configured.none() : AgentRequests.Configured.of(agents, settings),
                reminders);
    }

    /**
     * Reads a request in each language with the offline planner, loading the intent classifier's model,
     * the readers and the time grammars before a person's first turn needs them. Plans nothing that
     * runs, calls no model and writes nothing.
     */
    public void warmUp() {
        OfflinePlanner offline = new OfflinePlanner();
        ZonedDateTime at = Instant.now().atZone(java.time.ZoneOffset.UTC);
        offline.plan("remind me tomorrow at 9 to call Dana", new Planner.Context("en", at));
        offline.plan("תזכיר לי מחר בשמונה בערב לקנות חלב", new Planner.Context("he", at));
    }

    /** Memo over {@code store}'s database (its tables made or brought up to date), with the offline planner. */
    public static Memo open(RunStore store) {
        return new Memo(MemoData.open(store), new OfflinePlanner(), Instant::now);
    }

    /**
     * Memo planning with {@code model} ({@link ModelPlanner}), its retries waiting on {@code time}, and
     * resolving with it where a resolver has a model path ({@link ModelResolvers}); a message or a step
     * the model cannot be reached for is planned or resolved offline, and the run says so.
     */
    public static Memo open(RunStore store, Model model, TimeSource time) {
        MemoData data = MemoData.open(store);
        MemoResolvers offline = new MemoResolvers(data);
        return new Memo(
                data,
                new ModelPlanner(model, time, offline.actions()),
                Instant::now,
                SpokenResolvers.of(ModelResolvers.registry(offline, model)));
    }

    /** Memo planning with {@code planner} and resolving with {@code model} where a resolver has a model path. */
    static Memo open(RunStore store, Planner planner, Model model, TimeSource time) {
        MemoData data = MemoData.open(store);
        return new Memo(
                data,
                planner,
                Instant::now,
                SpokenResolvers.of(ModelResolvers.registry(new MemoResolvers(data), model)));
    }

    /** Memo with another planner (a model's). */
    public static Memo open(RunStore store, Planner planner) {
        return new Memo(MemoData.open(store), Objects.requireNonNull(planner, "planner"), Instant::now);
    }

    /** Memo whose reminders fire on {@code clock} (tests move it by hand). */
    static Memo open(RunStore store, Supplier<Instant> clock) {
        return new Memo(MemoData.open(store), new OfflinePlanner(), clock);
    }

    static ToolRegistry tools(MemoData data, Reminders reminders) {
        record Text(String text) {}
        Tool respond = Tool.typed(
                        MemoResolvers.RESPOND, "Answers the user in words", Text.class, Text.class, (in, ctx) -> in)
                .chat(true)
                .idempotent(true)
                .build();
        return new MemoTools(data, reminders).registry().with(respond);
    }

    public MemoData data() {
        return data;
    }

    /** The sync of users' connected CalDAV calendars: on demand, or started in the background. */
    public CalendarSync calendar() {
        return calendar;
    }

    /** Users' calendar connections, as the command line connects, syncs, shows and disconnects them. */
    public CalendarConnections calendarConnections() {
        return new CalendarConnections(this);
    }

    /** Users' mailboxes, as the command line adds, checks, shows and removes them. */
    public Mailboxes mailboxes() {
        return new Mailboxes(this);
    }

    /** The zone Memo keeps for {@code user}; empty for a user Memo does not know. */
    public Optional<ZoneId> zoneOf(String user) {
        return data.findUser(user).map(User::zone);
    }

    /**
     * {@code user}'s events as an iCalendar text.
     *
     * @throws NotFoundException for a user Memo does not know
     */
    public String exportCalendar(String user) {
        if (data.findUser(user).isEmpty()) {
            throw new NotFoundException("no Memo user '" + user + "': they have not written to Memo yet");
        }
        return new dev.weft.memo.data.ICalendars(data).export(user);
    }

    /** How many events {@code user} has in Memo's calendar. */
    public int eventCount(String user) {
        return data.events().all(user).size();
    }

    /**
     * Adds the events of the iCalendar {@code text} to {@code user}'s calendar, each under its UID (one the
     * user has already is left as it is); a user Memo does not know yet is made, in {@code zone}.
     *
     * @return how many were added
     * @throws WeftException {@code E_BAD_INPUT} for a text that is not iCalendar
     */
    public int importCalendar(String user, String text, ZoneId zone, Instant now) {
        data.user(user, "en", zone, now);
        return new dev.weft.memo.data.ICalendars(data).importEvents(user, text, now);
    }

    /** Memo's reminders: start a scheduler on them to have them fire. */
    public Reminders reminders() {
        return reminders;
    }

    /**
     * What {@code user} asked Memo to remember: the memories that match {@code query} best (by their
     * words and their meaning, as {@code memoryOperations} searches), or without a query the latest
     * ones; at most {@code limit} (1–50).
     *
     * @throws WeftException {@code E_ARGS_INVALID} for a limit out of range
     */
    public ObjectNode memories(String user, Optional<String> query, int limit) {
        ObjectNode args = Json.object();
        args.put("operation", query.isPresent() ? "search" : "getContext");
        query.ifPresent(q -> args.put("query", q));
        args.put("limit", limit);
        ZoneId zone = data.findUser(user).map(User::zone).orElse(java.time.ZoneOffset.UTC);
        ObjectNode found = new dev.weft.memo.data.MemoryOperations(data, MemoTools.ENVIRONMENT_EMBEDDER)
                .apply(args, new dev.weft.memo.data.OperationContext(user, zone, Instant.now(), "read"));
        ObjectNode out = Json.object();
        out.set("memories", query.isPresent() ? found.get("memories") : found.get("latest"));
        return out;
    }

    /** The plan executor Memo's runs are made with ({@link #EXECUTOR}). */
    public PlanExecutor executor() {
        return executor;
    }

    /**
     * Answers a message on {@code runner} (whose time source is "now").
     *
     * @throws WeftException {@code E_BAD_INPUT} for an empty message or a bad user id
     */
    public Reply ask(Runner runner, Request request) {
        String message = request.message().strip();
        if (message.isEmpty()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "the message is empty: say something to Memo");
        }
        String language = dev.weft.language.Language.codeOf(message);
        Instant now = runner.time().now();
        User user;
        try {
            user = data.user(request.user(), language, request.zone().orElse(ZoneId.systemDefault()), now);
        } catch (IllegalArgumentException e) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, e.getMessage());
        }
        if (request.zone().isPresent() && !request.zone().get().equals(user.zone())) {
            user = data.updateUser(
                    new User(user.id(), user.language(), request.zone().get(), user.createdAt()));
        }
        ZonedDateTime at = now.atZone(user.zone());
        Planner.Context planning = new Planner.Context(language, at);
        if (dev.weft.memo.internal.planning.FollowUps.mayRefer(message)) {
            planning = referent(runner, user.id(), now).map(planning::about).orElse(planning);
        }
        // A bare "no", "ok" or "yes" with nothing waiting for it asks for nothing: answered in words,
        // never planned (a planner torn over "cancel" would ask to approve a plan of its own).
        Plan planned = Replies.acknowledgement(message, language).isPresent()
                ? new Plan(
                        "conversation",
                        1.0,
                        List.of(new PlanStep(
                                "A",
                                "general",
                                "respond",
                                Json.object().put("message", message),
                                Json.object(),
                                List.of())))
                : plan(message, planning);
        // The safety invariants, whichever planner planned: a question changes nothing, and a change of
        // what the user has that their words did not ask for waits for them.
        ChangeGuard.Guarded guarded = GUARD.guard(planned, message);
        Plan plan = guarded.plan();
        if (guarded.outOfScope().isPresent() || plan.steps().isEmpty()) {
            // Nothing Memo does: an honest reply and no step that writes.
            ObjectNode said = Json.object().put("message", message);
            guarded.outOfScope().ifPresent(topic -> said.put("outOfScope", topic));
            List<PlanStep> steps = new java.util.ArrayList<>(plan.steps());
            if (steps.stream().noneMatch(s -> s.capability().equals("general"))) {
                steps.add(new PlanStep(
                        steps.isEmpty() ? "A" : "Z", "general", "respond", said, Json.object(), List.of()));
            }
            plan = new Plan("conversation", plan.confidence(), steps);
        }
        if (!guarded.withdrawn().isEmpty()) {
            com.fasterxml.jackson.databind.node.ArrayNode withdrawn =
                    planning.facts().putArray("withdrawn");
            guarded.withdrawn().forEach(s -> withdrawn.add(s.capability() + "/" + s.action()));
        }
        ObjectNode input = Json.object();
        input.put("message", message);
        input.put("language", language);
        input.put("now", at.toOffsetDateTime().toString());
        input.put("zone", user.zone().getId());
        planning.facts().put("planner", planning.facts().path("planner").asText(planner.name()));
        input.set("planner", planning.facts());
        if (isUndo(plan)) {
            input.set("undo", undone(runner, user.id(), Optional.empty(), request.mode() == PlanMode.PREVIEW));
        }
        PlanMode mode = request.mode();
        if (mode == PlanMode.AUTO && unsure(plan)) {
            // A plan Memo is unsure of does not change or delete anything before the user says yes.
            mode = PlanMode.APPROVAL;
            input.put("unsure", true);
        }
        PlanRequest planRequest = new PlanRequest(mode, input, Set.of(), Json.object())
                .forUser(user.id())
                .holding(guarded.held());
        if (request.runId().isPresent()) {
            planRequest = planRequest.withRunId(request.runId().get());
        }
        data.conversation()
                .append(user.id(), new Conversation.Message(Conversation.Role.USER, message, Optional.empty(), now));
        return kept(runner, reply(executor.run(runner, plan, planRequest), user));
    }

    /**
     * The plan of {@code message}: the planner's, or the offline planner's when a model planner cannot
     * reach its model (the facts say so). A model that answers with no valid plan, even after one
     * repair, is an error ({@code E_MODEL_OUTPUT_INVALID}), not a silent fallback.
     */
    private Plan plan(String message, Planner.Context context) {
        if (!(planner instanceof OfflinePlanner)) {
            // What "it" is, the conversation knows: a follow-up about it is read the same with a model.
            Optional<Plan> followUp = OFFLINE.followUp(message, context);
            if (followUp.isPresent()) {
                context.facts().put("planner", "offline");
                return followUp.get();
            }
        }
        try {
            return planner.plan(message, context);
        } catch (ModelUnavailableException | ModelTransientException e) {
            context.facts().put("planner", "offline");
            context.facts().put("fallbackFrom", planner.name());
            context.facts().put("fallbackReason", e.code() + ": " + e.getMessage());
            return offline.plan(message, context);
        }
    }

    private static final OfflinePlanner OFFLINE = new OfflinePlanner();

    /**
     * Memo pays nothing, orders no ride, food or tickets, and runs no device or music: such a request,
     * said as a command, gets an honest reply and no step.
     */
    private static final ChangeGuard GUARD = ChangeGuard.of(
            Memo::effectOf,
            Set.of("payments", "transport", "food", "smart_home", "music", "shopping"),
            Memo::readInstead);

    private static final Set<String> SENDING = Set.of("send_email", "reply_email", "forward_email");

    /** What a step of Memo's does to what the user has, by its action. */
    static ChangeGuard.Effect effectOf(PlanStep step) {
        String action = step.action();
        String capability = step.capability();
        if (capability.equals("general") || capability.equals("meta")) {
            return ChangeGuard.Effect.NONE;
        }
        if (SENDING.contains(action)) {
            return ChangeGuard.Effect.SEND;
        }
        if (action.startsWith("delete") || action.equals("archive_email") || action.equals("forget")) {
            return ChangeGuard.Effect.DELETE;
        }
        if (action.startsWith("update")
                || action.startsWith("complete")
                || action.equals("end_recurring")
                || action.equals("toggle_item")
                || action.equals("mark_read")
                || action.equals("mark_unread")
                || action.equals("star_email")
                || action.equals("unstar_email")
                || action.equals("label_email")) {
            return ChangeGuard.Effect.UPDATE;
        }
        boolean reads = action.startsWith("find")
                || action.startsWith("list")
                || action.startsWith("search")
                || action.startsWith("read")
                || action.startsWith("check")
                || action.startsWith("get")
                || action.startsWith("summarize")
                || action.startsWith("answer")
                || action.equals("compose_email");
        return reads ? ChangeGuard.Effect.NONE : ChangeGuard.Effect.CREATE;
    }

    /**
     * The read of what a change a question was planned as would have touched: its tasks, list, events,
     * emails or memories, found by the same words; empty when there is nothing to read instead.
     */
    static Optional<PlanStep> readInstead(PlanStep step) {
        JsonNode c = step.constraints();
        ObjectNode read = Json.object();
        String action;
        switch (step.capability()) {
            case "database" -> {
                if (step.action().contains("list") || step.action().contains("item")) {
                    action = "find_list";
                    copy(c, read, "listName");
                } else {
                    action = "find_task";
                    copy(c, read, "window", "type");
                    if (read.path("window").asText("").equals("all")) {
                        // A bulk change's "every window" is a read's no window at all.
                        read.remove("window");
                    }
                    if (!read.has("type")
                            && (c.path("isReminder").asBoolean(false)
                                    || c.path("isAlarm").asBoolean(false))) {
                        read.put("type", "reminder");
                    }
                }
            }
            case "calendar" -> {
                if (c.path("summary").isTextual()
                        && !c.has("timeMin")
                        && !step.action().equals("create_event")) {
                    action = "find_event";
                    copy(c, read, "summary", "timeMin", "timeMax");
                } else {
                    action = "list_events";
                    copy(c, read, "timeMin", "timeMax");
                }
            }
            case "gmail" -> {
                action = "search_emails";
                copy(c, read, "from", "subject");
            }
            case "second-brain" -> {
                action = "search_memory";
                read.put("query", c.path("query").asText(c.path("content").asText("")));
            }
            default -> {
                return Optional.empty();
            }
        }
        return Optional.of(new PlanStep(step.id(), step.capability(), action, read, Json.object(), step.dependsOn()));
    }

    private static void copy(JsonNode from, ObjectNode to, String... fields) {
        for (String field : fields) {
            if (from.hasNonNull(field)) {
                to.set(field, from.get(field));
            }
        }
    }

    /** How long after Memo's reply "it" still means what that reply was about. */
    private static final java.time.Duration FOLLOW_UP = java.time.Duration.ofMinutes(30);

    /**
     * What "it" means for {@code user} now: the one task or event that their latest request (of the
     * last three that Memo answered in the past half hour, the newest that touched any) made, changed
     * or found; empty when that request touched several, or none did.
     */
    private Optional<Planner.Referent> referent(Runner runner, String user, Instant now) {
        List<Conversation.Message> replies = runsSaid(user, 8).stream()
                .filter(said ->
                        said.role() == Conversation.Role.MEMO && !said.at().isBefore(now.minus(FOLLOW_UP)))
                .limit(3)
                .toList();
        for (Conversation.Message said : replies) {
            Optional<dev.weft.core.Run> stored =
                    runner.store().findRun(said.runId().get());
            if (stored.isEmpty() || !PlanExecutor.isPlanRun(stored.get())) {
                continue;
            }
            List<StepOutcome> touched = PlanExecutor.outcomes(
                            runner.result(said.runId().get()))
                    .values()
                    .stream()
                    .flatMap(o -> o.leaves().stream())
                    .filter(o -> o.status() == StepOutcome.Status.SUCCEEDED)
                    .filter(o -> o.tool().equals(MemoTools.TASKS) || o.tool().equals(MemoTools.CALENDAR))
                    .toList();
            for (int j = touched.size() - 1; j >= 0; j--) {
                StepOutcome outcome = touched.get(j);
                String kind = outcome.tool().equals(MemoTools.TASKS) ? "task" : "event";
                JsonNode result = outcome.result();
                JsonNode one = result.path(kind);
                JsonNode many = result.path(kind + "s");
                if (!one.isObject() && many.isArray()) {
                    if (many.size() != 1) {
                        return Optional.empty();
                    }
                    one = many.get(0);
                }
                if (one.isObject() && one.hasNonNull("id")) {
                    return Optional.of(referentOf(kind, one));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The lines of {@code user}'s last {@code last} that carry a run, newest first, one for each run (a
     * question and its answer are one run).
     */
    private List<Conversation.Message> runsSaid(String user, int last) {
        List<Conversation.Message> recent = data.conversation().recent(user, last);
        java.util.Set<String> seen = new java.util.HashSet<>();
        List<Conversation.Message> runs = new java.util.ArrayList<>();
        for (int i = recent.size() - 1; i >= 0; i--) {
            Optional<String> id = recent.get(i).runId();
            if (id.isPresent() && seen.add(id.get())) {
                runs.add(recent.get(i));
            }
        }
        return runs;
    }

    private static Planner.Referent referentOf(String kind, JsonNode item) {
        String text = item.path(kind.equals("task") ? "text" : "summary").asText("");
        String when = item.path(kind.equals("task") ? "dueDate" : "start").asText("");
        Optional<ZonedDateTime> at = Optional.empty();
        try {
            if (when.length() > 10) {
                at = Optional.of(java.time.OffsetDateTime.parse(when).toZonedDateTime());
            }
        } catch (java.time.format.DateTimeParseException e) {
            at = Optional.empty();
        }
        return new Planner.Referent(kind, item.get("id").asText(), text, at);
    }

    /** Below this confidence, a plan that changes or deletes something asks first. */
    static final double UNSURE = 0.5;

    private static boolean unsure(Plan plan) {
        return plan.confidence() < UNSURE
                && plan.steps().stream()
                        .map(Memo::effectOf)
                        .anyMatch(e -> e != ChangeGuard.Effect.NONE && e != ChangeGuard.Effect.CREATE);
    }

    private static boolean isUndo(Plan plan) {
        return plan.steps().size() == 1
                && plan.steps().get(0).capability().equals("meta")
                && plan.steps().get(0).action().equals(UNDO_ACTION);
    }

    /** A plan step's action that undoes the user's last run ({@code meta/undo}). */
    static final String UNDO_ACTION = "undo";

    /**
     * Undoes {@code user}'s run {@code runId}, or their latest run that changed something, and says
     * what it did: {@code {"runId", "message", "status", "calls", "error"}}, {@code {"none": true}} when
     * there is nothing to undo, or, for a preview, what would be undone without undoing it.
     *
     * @throws NotFoundException for a run that does not exist, is not Memo's, or is another user's
     */
    private ObjectNode undone(Runner runner, String user, Optional<String> runId, boolean preview) {
        ObjectNode out = Json.object();
        Optional<RunResult> target =
                runId.isPresent() ? Optional.of(ownRun(runner, user, runId.get())) : lastUndoable(runner, user);
        if (target.isEmpty()) {
            out.put("none", true);
            return out;
        }
        RunResult run = target.get();
        out.put("runId", run.runId());
        out.put("message", run.run().input().path("input").path("message").asText(""));
        if (preview) {
            out.put("preview", true);
            return out;
        }
        try {
            PlanExecutor.UndoReport report = executor.undo(runner, run.runId(), user);
            out.put("status", report.status().name());
            out.put("calls", report.calls().size());
            report.undoRunId().ifPresent(id -> out.put("undoRunId", id));
            report.calls().stream()
                    .filter(call -> !call.succeeded())
                    .findFirst()
                    .flatMap(PlanExecutor.UndoCall::error)
                    .ifPresent(e -> out.put("error", e.message()));
            if (report.calls().isEmpty()) {
                out.put("nothing", true);
            }
        } catch (dev.weft.core.RunStateException e) {
            if (runner.store().findRun(PlanExecutor.undoRunId(run.runId(), 1)).isPresent()) {
                out.put("already", true);
            } else {
                out.put("status", "FAILED");
                out.put("error", e.getMessage());
            }
        } catch (WeftException e) {
            out.put("status", "FAILED");
            out.put("error", e.getMessage());
        }
        return out;
    }

    /** {@code user}'s own Memo run {@code runId}; another user's is not told apart from one that does not exist. */
    private RunResult ownRun(Runner runner, String user, String runId) {
        Optional<dev.weft.core.Run> run = runner.store().findRun(runId);
        if (run.isEmpty()
                || !run.get().user().map(user::equals).orElse(false)
                || !PlanExecutor.executorName(run.get()).map(EXECUTOR::equals).orElse(false)) {
            throw new NotFoundException("no Memo run '" + runId + "' of yours");
        }
        return runner.result(runId);
    }

    /** The user's latest finished run with something done that can be undone, and not undone yet. */
    private Optional<RunResult> lastUndoable(Runner runner, String user) {
        for (Conversation.Message said : runsSaid(user, 40)) {
            Optional<String> id = said.runId();
            RunResult run = runner.result(id.get());
            if (!run.status().isFinished()
                    || isUndo(PlanParser.fromJson(run.run().input().path("plan")))) {
                continue;
            }
            boolean undoable = PlanExecutor.outcomes(run).values().stream()
                    .flatMap(o -> o.leaves().stream())
                    .anyMatch(o -> o.undo().isPresent() && o.status() == StepOutcome.Status.SUCCEEDED);
            if (undoable
                    && runner.store()
                            .findRun(PlanExecutor.undoRunId(id.get(), 1))
                            .isEmpty()) {
                return Optional.of(run);
            }
            if (undoable) {
                // The latest thing the user did was undone already: undo does not reach further back.
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /**
     * Undoes {@code user}'s run {@code runId} (or, when empty, their latest run that changed something)
     * and says so in their language, as a run of its own: "undo" in a conversation, {@code weft memo
     * undo}, {@code POST /api/runs/{id}/undo}.
     *
     * @throws NotFoundException for a run that does not exist, is not Memo's, or is another user's
     */
    public Reply undo(Runner runner, String user, Optional<String> runId) {
        User known = data.findUser(user)
                .orElseThrow(() -> new NotFoundException(
                        runId.map(id -> "no Memo run '" + id + "' of yours").orElse("no Memo user '" + user + "'")));
        ZonedDateTime at = runner.time().now().atZone(known.zone());
        String language = known.language();
        ObjectNode input = Json.object();
        String said = language.equals("he") ? "בטל את זה" : "undo";
        input.put("message", said);
        input.put("language", language);
        input.put("now", at.toOffsetDateTime().toString());
        input.put("zone", known.zone().getId());
        input.set("undo", undone(runner, user, runId, false));
        Plan plan = new Plan(
                "meta", 1.0, List.of(new PlanStep("A", "meta", UNDO_ACTION, Json.object(), Json.object(), List.of())));
        PlanRequest planRequest = new PlanRequest(PlanMode.AUTO, input, Set.of(), Json.object()).forUser(user);
        data.conversation()
                .append(user, new Conversation.Message(Conversation.Role.USER, said, Optional.empty(), at.toInstant()));
        return kept(runner, reply(executor.run(runner, plan, planRequest), known));
    }

    /** Keeps Memo's reply in the user's conversation, with the run that made it. */
    private Reply kept(Runner runner, Reply reply) {
        String user = reply.run().run().user().orElseThrow();
        data.conversation()
                .append(
                        user,
                        new Conversation.Message(
                                Conversation.Role.MEMO,
                                reply.text(),
                                Optional.of(reply.run().runId()),
                                runner.time().now()));
        return reply;
    }

    /** Approves the steps of {@code user}'s waiting run (all of them when {@code steps} is empty), and continues it. */
    public Reply approve(Runner runner, String runId, String user, List<String> steps) {
        RunResult waiting = runner.result(runId);
        waiting.run().requireUser(user);
        List<String> ids = steps.isEmpty() ? waitingSteps(waiting) : steps;
        PlanDecision decision = waiting.interrupts().containsKey("plan")
                ? new PlanDecision(Optional.of(true), ids, List.of(), Json.object())
                : PlanDecision.approve(ids.toArray(String[]::new));
        return kept(runner, reply(executor.resume(runner, runId, decision, user), userOf(user)));
    }

    /** Rejects what {@code user}'s waiting run waits for: its steps end SKIPPED. */
    public Reply reject(Runner runner, String runId, String user) {
        RunResult waiting = runner.result(runId);
        waiting.run().requireUser(user);
        PlanDecision decision = waiting.interrupts().containsKey("plan")
                ? PlanDecision.approvePlan(false)
                : PlanDecision.reject(waitingSteps(waiting).toArray(String[]::new));
        return kept(runner, reply(executor.resume(runner, runId, decision, user), userOf(user)));
    }

    /** Answers the question {@code user}'s waiting run asked: "2" picks the second option, words narrow them. */
    public Reply answer(Runner runner, String runId, String user, String text) {
        RunResult waiting = runner.result(runId);
        waiting.run().requireUser(user);
        String step = waitingSteps(waiting).stream()
                .findFirst()
                .orElseThrow(() -> new WeftException(ErrorCode.E_RUN_STATE, "run '" + runId + "' asks nothing"));
        ObjectNode answer = Json.object();
        String trimmed = text.strip();
        if (trimmed.matches("\\d{1,2}")) {
            answer.put("choice", Integer.parseInt(trimmed));
        } else {
            answer.put("reply", trimmed);
        }
        data.conversation()
                .append(
                        user,
                        new Conversation.Message(
                                Conversation.Role.USER,
                                trimmed,
                                Optional.of(runId),
                                runner.time().now()));
        return kept(
                runner, reply(executor.resume(runner, runId, PlanDecision.answer(step, answer), user), userOf(user)));
    }

    /**
     * The run {@code user}'s conversation waits on: the run of Memo's last reply, when nothing was said
     * after it and it is still {@code WAITING} (on an approval or a question).
     */
    public Optional<RunResult> waiting(Runner runner, String user) {
        List<Conversation.Message> last = data.conversation().recent(user, 1);
        if (last.isEmpty()
                || last.get(0).role() != Conversation.Role.MEMO
                || last.get(0).runId().isEmpty()) {
            return Optional.empty();
        }
        RunResult run = runner.result(last.get(0).runId().get());
        return run.status() == RunStatus.WAITING ? Optional.of(run) : Optional.empty();
    }

    /**
     * One line of a conversation: answers the question {@code waiting} asked, approves or rejects what
     * it waits for when the line is a "yes" or a "no" (in English or Hebrew: "כן", "לא"), and is
     * otherwise a new message. This is how {@code weft chat} and the server's chat endpoint continue a
     * run in words.
     */
    public Reply converse(Runner runner, Request request, Optional<RunResult> waiting) {
        if (waiting.isPresent() && waiting.get().status() == RunStatus.WAITING) {
            String runId = waiting.get().runId();
            Optional<JsonNode> question = waiting.get().interrupts().values().stream()
                    .filter(p -> p.path("type").asText().equals("clarify"))
                    .findFirst();
            if (question.isPresent() && saysNo(request.message())) {
                // No question Memo asks is answered by "no": "which one?" or "what should the email say?"
                // answered "no" or "never mind" drops the request, and the run asks no more.
                return reject(runner, runId, request.user());
            }
            if (question.isPresent() && answers(question.get(), request.message())) {
                return answer(runner, runId, request.user(), request.message());
            }
            if (UNCLEAR.matcher(request.message()).matches()
                    || (question.isEmpty() && request.message().strip().matches("\\d{1,3}[.!]*"))) {
                // "2", "maybe", "what?" to a question: asked again, naming the choices, never read as a
                // request of its own ("I'm not sure how to help").
                return askedAgain(waiting.get(), request.user(), question.isPresent());
            }
            if (question.isPresent()) {
                // "which one?" answered with a request that names none of them ("what do I have
                // tomorrow?"): a new message; the question stays where it was.
                return ask(runner, request);
            }
            if (saysYes(request.message())) {
                return approve(runner, runId, request.user(), List.of());
            }
            if (saysNo(request.message())) {
                return reject(runner, runId, request.user());
            }
        }
        return ask(runner, request);
    }

    private static final Pattern ORDINAL = Pattern.compile(
            "(?iU)^(?:the\\s+)?(?:first|second|third|fourth|last|both|all|none|neither)(?:\\s+one)?[.!]*$"
                    + "|^(?:ה)?(?:ראשון|ראשונה|שני|שנייה|שלישי|שלישית|רביעי|אחרון|אחרונה)[.!]*$|^(?:שניהם|כולם|אף אחד)[.!]*$");

    /**
     * Whether {@code line} answers the question {@code asked}: any line answers a question without
     * options ("what should I remind you of?"); one with options is answered by a number, an ordinal,
     * or words one of the options has.
     */
    static boolean answers(JsonNode asked, String line) {
        JsonNode options = asked.path("options");
        String said = line.strip();
        if (!options.isArray()
                || options.isEmpty()
                || said.matches("\\d{1,2}")
                || ORDINAL.matcher(said).matches()) {
            return true;
        }
        List<String> named = new java.util.ArrayList<>();
        options.forEach(option -> named.add(option.asText().replaceFirst("^\\s*\\d{1,2}\\.\\s*", "")));
        return !dev.weft.language.EntityMatch.best(said, named, o -> o).isEmpty();
    }

    /**
     * The reply of {@code user}'s run {@code runId} as it stands (done, waiting or failed), as {@link
     * #converse} gave it when the run was started: for a message handled again after a crash, which
     * must be answered without a second run.
     *
     * @throws NotFoundException for a run that does not exist ({@code E_FORBIDDEN} for another user's)
     */
    public Reply replyOf(Runner runner, String runId, String user) {
        RunResult result = runner.result(runId);
        result.run().requireUser(user);
        return reply(result, userOf(user));
    }

    /**
     * A notification as its user reads it: a calendar conflict as it was told them; a reminder that fell
     * due in the language it was set in, in their zone.
     */
    public String notice(Notification notification) {
        if (CalendarSync.isConflict(notification)
                || notification.type().equals(dev.weft.memo.data.OAuthGrants.REVOKED)) {
            return notification.text();
        }
        User user = userOf(notification.user());
        String language = dev.weft.language.Language.codeOf(notification.text());
        return Replies.reminder(language, notification.text(), notification.dueAt(), notification.late(), user.zone());
    }

    /**
     * The question {@code waiting} asks, asked again after an answer that was not one: a yes/no question
     * says the two answers it takes, a question with options says how to pick one.
     */
    private Reply askedAgain(RunResult waiting, String userId, boolean options) {
        User user = userOf(userId);
        Reply pending = reply(waiting, user);
        String language = pending.language();
        String hint = options
                ? Texts.of(
                        language,
                        "Please pick one: say its number or its name.",
                        "נא לבחור אחת: אפשר לומר את המספר או את השם.")
                : Texts.of(
                        language,
                        "Please answer yes or no: yes to go ahead, no to leave it as it is.",
                        "נא לענות כן או לא: כן כדי להמשיך, לא כדי להשאיר כמו שזה.");
        String text = hint + "\n" + pending.text();
        ObjectNode json = pending.json().deepCopy();
        json.put("reply", text);
        return new Reply(language, pending.run(), pending.plan(), text, json);
    }

    private User userOf(String id) {
        return data.findUser(id)
                .orElseThrow(() -> new WeftException(ErrorCode.E_NOT_FOUND, "no Memo user '" + id + "'"));
    }

    private static List<String> waitingSteps(RunResult result) {
        return result.interrupts().keySet().stream()
                .filter(k -> k.startsWith("step:"))
                .map(k -> k.substring("step:".length()))
                .toList();
    }

    /**
     * The run's interrupts, each approval of a task call with the texts of the tasks it would change
     * ({@code touches}), read now, so that the question names them.
     */
    private Map<String, JsonNode> touching(RunResult result, User user) {
        Map<String, JsonNode> interrupts = new java.util.LinkedHashMap<>(result.interrupts());
        // The run's own "now": a window such as "today" means what it meant when the user asked.
        String asked = result.run().input().path("input").path("now").asText("");
        Instant now = asked.isEmpty()
                ? Instant.now()
                : java.time.OffsetDateTime.parse(asked).toInstant();
        interrupts.replaceAll((node, payload) -> {
            String tool = payload.path("tool").asText();
            if (!payload.path("type").asText().equals("approval")
                    || !(tool.equals(MemoTools.TASKS) || tool.equals(MemoTools.CALENDAR))
                    || !(payload.path("args") instanceof ObjectNode args)) {
                return payload;
            }
            dev.weft.memo.data.OperationContext reading =
                    new dev.weft.memo.data.OperationContext(user.id(), user.zone(), now, "touched");
            ObjectNode named = payload.deepCopy();
            ArrayNode touches = named.putArray("touches");
            if (tool.equals(MemoTools.TASKS)) {
                new dev.weft.memo.data.TaskOperations(data)
                        .touched(args, reading)
                        .forEach(t -> touches.addObject()
                                .put("text", t.text())
                                .put("kind", t.isReminder() ? "reminder" : "task"));
            } else {
                new dev.weft.memo.data.CalendarOperations(data)
                        .touched(args, reading)
                        .forEach(e ->
                                touches.addObject().put("text", e.summary()).put("kind", "event"));
            }
            return named;
        });
        return interrupts;
    }

    private Reply reply(RunResult result, User user) {
        JsonNode input = result.run().input();
        String language = input.path("input").path("language").asText(user.language());
        Plan plan = PlanParser.fromJson(input.path("plan"));
        Map<String, StepOutcome> outcomes = PlanExecutor.outcomes(result);
        Map<String, JsonNode> interrupts = touching(result, user);
        String text = Replies.reply(language, plan.steps(), outcomes, interrupts, user.zone());
        if (result.status() == RunStatus.FAILED && text.isEmpty()) {
            text = result.error().map(e -> e.message()).orElse("");
        }
        if (result.status() == RunStatus.CANCELLED) {
            text = (Texts.of(language, "Cancelled.", "בוטל.") + (text.isEmpty() ? "" : " " + text)).strip();
        }
        ObjectNode json = Json.object();
        json.put("language", language);
        json.put("status", result.status().name());
        json.put("runId", result.runId());
        json.set("plan", plan.toJson());
        ArrayNode resolutions = json.putArray("resolutions");
        ArrayNode results = json.putArray("results");
        for (PlanStep step : plan.steps()) {
            JsonNode waiting = result.interrupts().get("step:" + step.id());
            StepOutcome outcome = outcomes.get(step.id());
            if (waiting != null && waiting.path("type").asText().equals("clarify")) {
                ObjectNode clarify = resolutions.addObject();
                clarify.put("stepId", step.id());
                clarify.put("type", "clarify");
                clarify.put("question", waiting.path("question").asText());
                clarify.set("options", waiting.path("options"));
            } else if (waiting != null) {
                ObjectNode execute = resolutions.addObject();
                execute.put("stepId", step.id());
                execute.put("type", "execute");
                execute.put("functionName", waiting.path("tool").asText());
                execute.set("args", waiting.path("args"));
                // The sentence an approval card shows; the call itself stays behind it.
                execute.put("says", Replies.pending(language, interrupts.get("step:" + step.id()), user.zone()));
            } else if (outcome != null && !outcome.tool().isEmpty()) {
                ObjectNode execute = resolutions.addObject();
                execute.put("stepId", step.id());
                execute.put("type", "execute");
                execute.put("functionName", outcome.tool());
                execute.set("args", outcome.args());
            }
            if (outcome != null && outcome.status() != StepOutcome.Status.PREVIEWED) {
                ObjectNode r = results.addObject();
                r.put("stepId", step.id());
                r.put("success", outcome.status() == StepOutcome.Status.SUCCEEDED);
                r.set("data", outcome.result());
                if (outcome.error().isPresent()) {
                    ObjectNode error = r.putObject("error");
                    error.put("code", outcome.error().get().code().name());
                    error.put("message", outcome.error().get().message());
                } else {
                    r.putNull("error");
                }
                outcome.reason().ifPresent(reason -> r.put("skipped", reason));
            }
        }
        json.set(
                "summary", PlanExecutor.summary(result).map(PlanSummary::toJson).orElse(Json.object()));
        json.put("reply", text);
        return new Reply(language, result, plan, text, json);
    }
}
