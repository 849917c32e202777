package dev.weft.channels;

import dev.weft.assistant.Assistant;
import dev.weft.assistant.Assistants;
import dev.weft.assistant.Notices;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends the assistants' notices (reminders that fell due) to chats: each goes to the chat whose message
 * set it (the one that made or last changed its task or event), or else to the chat its user last
 * wrote from; only notices made after the chat was approved are sent. Each notice is claimed and put
 * in the channel's outbox in one transaction, so no process queues it twice and a process that dies
 * before sending leaves it to the next ({@link InboxWorker}: sent once, or {@code UNKNOWN} if the
 * process died while the provider was asked); this one queues only to the channels it has a sender
 * for, and leaves the others' notices to the processes that do. It looks every interval,
 * and at once when an assistant says it made a notice. Thread-safe.
 */
public final class NoticeDelivery implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(NoticeDelivery.class.getName());

    private final ChannelStore store;
    private final Assistants assistants;
    private final Map<String, ChannelSender> senders = new LinkedHashMap<>();
    private final Duration interval;
    private final Clock clock;
    private final Duration retention;
    private final Thread loop;
    private volatile boolean stopped;

    private NoticeDelivery(
            ChannelStore store,
            Assistants assistants,
            List<ChannelSender> senders,
            Duration interval,
            Clock clock,
            Duration retention) {
        this.store = store;
        this.retention = retention;
        this.assistants = assistants;
        senders.forEach(sender -> this.senders.put(sender.channel(), sender));
        this.interval = interval;
        this.clock = clock;
        this.loop = Thread.ofVirtual().name("weft-channel-notices").unstarted(this::run);
    }

    /** Starts delivering to the chats of {@code senders}' channels, looking every {@code interval}. */
    public static NoticeDelivery start(
            ChannelStore store, Assistants assistants, List<ChannelSender> senders, Duration interval, Clock clock) {
        return start(store, assistants, senders, interval, clock, InboxWorker.DEFAULT_RETENTION);
    }

    /**
     * Starts delivering to the chats of {@code senders}' channels, looking every {@code interval}; a
     * notice older than {@code retention} (the channels' inbox and outbox retention, after which its
     * claim is pruned) is not sent.
     */
    public static NoticeDelivery start(
            ChannelStore store,
            Assistants assistants,
            List<ChannelSender> senders,
            Duration interval,
            Clock clock,
            Duration retention) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the interval must be positive, was " + interval);
        }
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("the retention must be positive, was " + retention);
        }
        NoticeDelivery delivery = new NoticeDelivery(store, assistants, senders, interval, clock, retention);
        for (Assistant assistant : assistants.all()) {
            assistant.notices().ifPresent(notices -> notices.onNotice(delivery::wake));
        }
        delivery.loop.start();
        return delivery;
    }

    /** Looks now rather than at the next interval. */
    public void wake() {
        LockSupport.unpark(loop);
    }

    private void run() {
        while (!stopped) {
            try {
                deliverDue();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "channels: cannot look for notices to send", e);
            }
            LockSupport.parkNanos(interval.toNanos());
        }
    }

    /**
     * Puts every notice due to a chat of this process's channels in the outbox, where the channel's
     * {@link InboxWorker} sends it as it sends replies; how many it queued.
     */
    int deliverDue() {
        int sent = 0;
        Map<String, List<ChannelStore.Chat>> byUser = new LinkedHashMap<>();
        for (ChannelStore.Chat chat : store.chats()) {
            byUser.computeIfAbsent(chat.user(), u -> new java.util.ArrayList<>())
                    .add(chat);
        }
        for (Map.Entry<String, List<ChannelStore.Chat>> user : byUser.entrySet()) {
            java.time.Instant since = user.getValue().stream()
                    .map(ChannelStore.Chat::pairedAt)
                    .min(Comparator.naturalOrder())
                    .orElseThrow();
            for (Assistant assistant : assistants.all()) {
                Optional<Notices> notices = assistant.notices();
                if (notices.isEmpty()) {
                    continue;
                }
                for (Notices.Notice notice : notices.get().recent(user.getKey(), 50)) {
                    if (notice.at().isBefore(since)
                            || notice.at().isBefore(clock.instant().minus(retention))) {
                        continue;
                    }
                    ChannelStore.Chat target = store.chatOf(user.getKey(), notice.subject())
                            .orElseGet(() -> user.getValue().stream()
                                    .max(Comparator.comparing(ChannelStore.Chat::lastSeenAt))
                                    .orElseThrow());
                    ChannelSender sender = senders.get(target.channel());
                    if (sender == null
                            || !store.enqueueNotice(
                                    user.getKey(), notice.id(), target, notice.text(), clock.instant())) {
                        continue;
                    }
                    sender.outboxChanged();
                    sent++;
                }
            }
        }
        return sent;
    }

    @Override
    public void close() {
        stopped = true;
        LockSupport.unpark(loop);
        try {
            loop.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
