package dev.weft.channels;

import dev.weft.core.ErrorCode;
import dev.weft.core.LeaseOwner;
import dev.weft.core.ProcessProbe;
import dev.weft.core.WeftException;
import dev.weft.store.ProcessHousekeeping;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Handles one channel's messages from the store, where the channel kept them before acknowledging
 * them, and sends their replies through the outbox: a message is claimed under a lease, answered by
 * {@link Conversations#reply}, its reply written to the outbox (keyed by the message) before it is
 * sent, and marked sent once the provider took it. It looks every interval, and at once when {@link
 * #wake}d; a process that starts picks up what a dead one left: messages it had claimed (at once when
 * it was a process of this host, else when its lease ran out) and replies written but not sent. A
 * reply whose process died while the provider was being asked is marked {@code UNKNOWN} and never sent
 * again on its own (a person sees it in {@code weft channels outbox}): the provider may have it, and a
 * reply twice is worse than a reply missing that the owner can see. Finished rows older than the
 * retention are pruned every hour. Thread-safe.
 */
public final class InboxWorker implements AutoCloseable {
    /** How long finished inbox and outbox rows are kept, unless {@code WEFT_CHANNELS_RETENTION} says. */
    public static final Duration DEFAULT_RETENTION = Duration.ofDays(14);
    /** Sends of one reply the provider refused before it is given up as {@code FAILED}. */
    static final int MAX_ATTEMPTS = 8;

    private static final System.Logger LOG = System.getLogger(InboxWorker.class.getName());
    private static final Duration PRUNE_EVERY = Duration.ofHours(1);
    /** Longer than any one send (a reply is a few requests of at most 20 s each). */
    private static final Duration SEND_LEASE = Duration.ofMinutes(5);

    private final Conversations conversations;
    private final ChannelStore store;
    private final ChannelSender sender;
    private final Clock clock;
    private final Duration interval;
    private final Duration lease;
    private final Duration retention;
    private final ProcessProbe processes;
    private final Map<String, String> environment;
    private volatile ProcessHousekeeping.Part housekeeping = () -> {};
    private final LeaseOwner owner = LeaseOwner.ofThisProcess();
    private final ChatQueues queues = new ChatQueues();
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final Thread loop;
    private volatile boolean stopped;
    private Instant lastPruned = Instant.EPOCH;

    private InboxWorker(Builder builder) {
        this.conversations = builder.conversations;
        this.store = builder.conversations.store();
        this.sender = builder.sender;
        this.clock = builder.conversations.clock();
        this.interval = builder.interval;
        this.lease = builder.lease;
        this.retention = builder.retention;
        this.processes = builder.processes;
        this.environment = builder.environment;
        this.loop = Thread.ofVirtual().name("weft-inbox-" + sender.channel()).unstarted(this::run);
    }

    public static Builder builder(Conversations conversations, ChannelSender sender) {
        return new Builder(conversations, sender);
    }

    /**
     * Starts handling on a thread of its own; what a dead process left is picked up first. The process
     * takes part in the housekeeping of the store ({@link ProcessHousekeeping}) while it runs, so the
     * idempotency results and every module's expired rows are pruned where only channels run.
     *
     * @throws WeftException {@code E_BAD_INPUT} for a housekeeping setting that is not a duration
     */
    public InboxWorker start() {
        housekeeping = ProcessHousekeeping.join(
                store.runStore(),
                environment,
                "weft-" + ProcessHandle.current().pid(),
                line -> LOG.log(System.Logger.Level.INFO, line));
        loop.start();
        return this;
    }

    /** Looks now rather than at the next interval (a message was just kept). */
    public void wake() {
        LockSupport.unpark(loop);
    }

    private void run() {
        while (!stopped) {
            try {
                drain();
                if (!clock.instant().isBefore(lastPruned.plus(PRUNE_EVERY))) {
                    prune();
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "channels: cannot read the inbox of " + sender.channel(), e);
            }
            LockSupport.parkNanos(interval.toNanos());
        }
    }

    /**
     * One look: replies a dead process was sending marked unknown, replies not yet sent queued for
     * sending, and messages nobody is handling claimed and queued, each chat's in order. How many
     * messages and replies it queued.
     */
    int drain() {
        Instant now = clock.instant();
        String channel = sender.channel();
        for (ChannelStore.Reply reply : store.replies(channel, ChannelStore.OutboxStatus.SENDING)) {
            if (abandoned(reply.owner(), reply.updatedAt().plus(SEND_LEASE), now)) {
                store.move(
                        reply,
                        ChannelStore.OutboxStatus.SENDING,
                        ChannelStore.OutboxStatus.UNKNOWN,
                        owner.format(),
                        "the process sending it stopped while " + channel + " was asked; it may have arrived",
                        now);
                LOG.log(
                        System.Logger.Level.WARNING,
                        "channels: the reply to " + channel + " message " + reply.messageId() + " may or may not"
                                + " have been sent (its process died while sending); it is not sent again ('weft"
                                + " channels outbox' lists it)");
            }
        }
        int queued = 0;
        for (ChannelStore.Reply reply : store.replies(channel, ChannelStore.OutboxStatus.PENDING)) {
            if (reply.attempts() > 0 && now.isBefore(reply.updatedAt().plus(backoff(reply.attempts())))) {
                continue;
            }
            if (inFlight.add("out:" + reply.messageId())) {
                queues.submit(reply.chatId(), () -> {
                    try {
                        send(reply);
                    } finally {
                        inFlight.remove("out:" + reply.messageId());
                    }
                });
                queued++;
            }
        }
        for (ChannelStore.Kept kept : store.open(channel, 200)) {
            String key = "in:" + kept.message().messageId();
            boolean claimable = kept.status() == ChannelStore.InboxStatus.RECEIVED
                    || (kept.status() == ChannelStore.InboxStatus.HANDLING
                            && !inFlight.contains(key)
                            && abandoned(kept.owner(), kept.leaseUntil(), now));
            if (!claimable || !store.claim(kept, owner.format(), now.plus(lease), now)) {
                continue;
            }
            inFlight.add(key);
            queues.submit(kept.message().chatId(), () -> {
                try {
                    handle(kept.message());
                } finally {
                    inFlight.remove(key);
                }
            });
            queued++;
        }
        return queued;
    }

    /** Handles a claimed message: its reply into the outbox with the message marked done, then sent. */
    private void handle(Conversations.Inbound message) {
        FaultPoints.reach(FaultPoints.BEFORE_TURN);
        Optional<String> reply = conversations.reply(message);
        FaultPoints.reach(FaultPoints.AFTER_TURN);
        store.answer(message, reply, clock.instant());
        store.reply(message.channel(), message.messageId())
                .filter(r -> r.status() == ChannelStore.OutboxStatus.PENDING)
                .ifPresent(this::send);
    }

    private void send(ChannelStore.Reply reply) {
        FaultPoints.reach(FaultPoints.BEFORE_SEND);
        String me = owner.format();
        if (!store.move(
                reply, ChannelStore.OutboxStatus.PENDING, ChannelStore.OutboxStatus.SENDING, me, "", clock.instant())) {
            return; // another process is sending it, or did
        }
        ChannelStore.Reply sending = store.reply(reply.channel(), reply.messageId())
                .orElseThrow(() -> new IllegalStateException("reply " + reply.messageId() + " vanished"));
        try {
            sender.send(reply.chatId(), reply.text());
        } catch (ChannelUnavailableException e) {
            ChannelStore.OutboxStatus next = e.mayHaveArrived()
                    ? ChannelStore.OutboxStatus.UNKNOWN
                    : sending.attempts() >= MAX_ATTEMPTS
                            ? ChannelStore.OutboxStatus.FAILED
                            : ChannelStore.OutboxStatus.PENDING;
            store.move(sending, ChannelStore.OutboxStatus.SENDING, next, me, e.getMessage(), clock.instant());
            LOG.log(
                    System.Logger.Level.WARNING,
                    "channels: the reply to " + reply.channel() + " message " + reply.messageId() + " is " + next + ": "
                            + e.getMessage());
            return;
        }
        FaultPoints.reach(FaultPoints.AFTER_SEND);
        store.move(sending, ChannelStore.OutboxStatus.SENDING, ChannelStore.OutboxStatus.SENT, me, "", clock.instant());
    }

    /** Deletes the finished inbox and outbox rows older than the retention; how many. */
    public ChannelStore.Pruned prune() {
        Instant now = clock.instant();
        lastPruned = now;
        return store.prune(now.minus(retention));
    }

    /**
     * Whether a row held by {@code holder} until {@code until} is free to take: its lease ran out, or
     * its holder was a process of this host that is no longer running.
     */
    private boolean abandoned(Optional<String> holder, Instant until, Instant now) {
        if (holder.isEmpty() || until.isBefore(now)) {
            return true;
        }
        if (holder.get().equals(owner.format())) {
            return false;
        }
        Optional<LeaseOwner> parsed = LeaseOwner.parse(holder.get());
        return parsed.isPresent()
                && parsed.get().host().equals(owner.host())
                && !(parsed.get().pid() == owner.pid()
                        && parsed.get().processStart().equals(owner.processStart()))
                && !processes.isRunning(parsed.get().pid(), parsed.get().processStart());
    }

    /** Waits between tries of a reply the provider refused: 2, 4, 8 … seconds, at most five minutes. */
    static Duration backoff(int attempts) {
        if (attempts == 0) {
            return Duration.ZERO;
        }
        return Duration.ofSeconds(Math.min(300, 1L << Math.min(attempts, 9)));
    }

    /**
     * How long finished rows are kept: {@code WEFT_CHANNELS_RETENTION} in {@code env} ({@code 14d},
     * {@code 36h}, {@code 90m} or ISO-8601 such as {@code P7D}), else {@link #DEFAULT_RETENTION}.
     *
     * @throws WeftException {@code E_BAD_INPUT} for a value that is not a positive duration
     */
    public static Duration retentionFromEnvironment(Map<String, String> env) {
        String text = env.getOrDefault("WEFT_CHANNELS_RETENTION", "").strip();
        if (text.isEmpty()) {
            return DEFAULT_RETENTION;
        }
        String t = text.toLowerCase(Locale.ROOT);
        try {
            Duration parsed = null;
            if (t.startsWith("p")) {
                parsed = Duration.parse(t.toUpperCase(Locale.ROOT));
            } else if (t.matches("\\d+[dhms]")) {
                long n = Long.parseLong(t.substring(0, t.length() - 1));
                parsed = switch (t.charAt(t.length() - 1)) {
                    case 'd' -> Duration.ofDays(n);
                    case 'h' -> Duration.ofHours(n);
                    case 'm' -> Duration.ofMinutes(n);
                    default -> Duration.ofSeconds(n);
                };
            }
            if (parsed != null && !parsed.isNegative() && !parsed.isZero()) {
                return parsed;
            }
        } catch (DateTimeParseException | NumberFormatException e) {
            // falls through to the error below
        }
        throw new WeftException(
                ErrorCode.E_BAD_INPUT,
                "WEFT_CHANNELS_RETENTION=" + text + ": not a positive duration (use 14d, 36h, 90m or ISO-8601 such"
                        + " as P7D)");
    }

    /** Stops looking; the messages and replies being handled are finished first. */
    @Override
    public void close() {
        stopped = true;
        LockSupport.unpark(loop);
        try {
            if (loop.getState() != Thread.State.NEW) {
                loop.join(Duration.ofSeconds(5));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        queues.close();
        housekeeping.close();
    }

    /** Builds an {@link InboxWorker}; every setter rejects a bad value at once. */
    public static final class Builder {
        private final Conversations conversations;
        private final ChannelSender sender;
        private Duration interval = Duration.ofSeconds(1);
        private Duration lease = Duration.ofMinutes(10);
        private Duration retention = DEFAULT_RETENTION;
        private ProcessProbe processes = ProcessProbe.system();
        private Map<String, String> environment = System.getenv();

        private Builder(Conversations conversations, ChannelSender sender) {
            this.conversations = Objects.requireNonNull(conversations, "conversations");
            this.sender = Objects.requireNonNull(sender, "sender");
        }

        /** How often the inbox is read when nothing wakes the worker (default one second). */
        public Builder interval(Duration interval) {
            this.interval = positive(interval, "the interval");
            return this;
        }

        /** How long a claimed message is a process's before another may take it (default ten minutes). */
        public Builder lease(Duration lease) {
            this.lease = positive(lease, "the lease");
            return this;
        }

        /** How long finished inbox and outbox rows are kept (default {@link #DEFAULT_RETENTION}). */
        public Builder retention(Duration retention) {
            this.retention = positive(retention, "the retention");
            return this;
        }

        /** Tells whether a process of this host still runs (tests give their own). */
        public Builder processes(ProcessProbe processes) {
            this.processes = Objects.requireNonNull(processes, "processes");
            return this;
        }

        /**
         * The environment the process's housekeeping reads its settings from (default the process's):
         * {@code WEFT_HOUSEKEEPING_EVERY}, {@code WEFT_RETAIN_IDEMPOTENCY}, {@code WEFT_CHANNELS_RETENTION}.
         */
        public Builder environment(Map<String, String> environment) {
            this.environment = Map.copyOf(environment);
            return this;
        }

        public InboxWorker build() {
            return new InboxWorker(this);
        }

        private static Duration positive(Duration value, String what) {
            Objects.requireNonNull(value, what);
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(what + " must be positive, was " + value);
            }
            return value;
        }
    }
}
