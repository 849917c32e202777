package dev.weft.channels;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.assistant.Assistant;
import dev.weft.assistant.Assistants;
import dev.weft.assistant.Message;
import dev.weft.assistant.Turn;
import dev.weft.core.ErrorCode;
import dev.weft.core.Graph;
import dev.weft.core.NotFoundException;
import dev.weft.core.Run;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.language.Language;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What every channel shares: a message from a chat becomes a turn of the assistant the chat was paired
 * with, as the user the owner chose for it, and the turn's reply is what the channel sends back. An
 * approval or a question waiting in the conversation is answered by the next message ("yes", "כן",
 * "2"), as the assistant's {@code converse} does. A chat nobody approved gets a short pairing code and
 * nothing else ({@code weft channels approve CODE}); codes expire, and a channel holds a bounded number
 * pending at once, dropping the oldest for a newcomer, so that strangers cannot lock the owner out. A
 * message is handled from the inbox it was kept in ({@link InboxWorker}), which drops a second delivery
 * of it; handled again after a crash, it makes no second turn. Messages of one chat are handled one at
 * a time. Thread-safe.
 */
public final class Conversations {
    private static final System.Logger LOG = System.getLogger(Conversations.class.getName());
    /** Code letters a person reads back without confusing them (no 0/O, 1/I/L). */
    private static final String CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

    private final ChannelStore store;
    private final Assistants assistants;
    private final Runner runner;
    private final Clock clock;
    private final Duration codeLifetime;
    private final int maxPending;
    private final String defaultAssistant;
    private final SecureRandom random = new SecureRandom();
    private final ConcurrentHashMap<String, ReentrantLock> chatLocks = new ConcurrentHashMap<>();

    private Conversations(Builder builder) {
        this.store = builder.store;
        this.assistants = builder.assistants;
        this.runner = builder.runner;
        this.clock = builder.clock;
        this.codeLifetime = builder.codeLifetime;
        this.maxPending = builder.maxPending;
        this.defaultAssistant = builder.assistant != null
                ? builder.assistant
                : assistants
                        .find("memo")
                        .map(Assistant::name)
                        .orElse(
                                assistants.names().isEmpty()
                                        ? "memo"
                                        : assistants.names().get(0));
    }

    public static Builder builder(ChannelStore store, Assistants assistants, Runner runner) {
        return new Builder(store, assistants, runner);
    }

    public ChannelStore store() {
        return store;
    }

    public Assistants assistants() {
        return assistants;
    }

    Clock clock() {
        return clock;
    }

    /** A message from a chat, as a channel received it: its id there makes a second delivery a duplicate. */
    public record Inbound(String channel, String chatId, String messageId, String text, String senderName) {
        public Inbound {
            Objects.requireNonNull(channel, "channel");
            Objects.requireNonNull(chatId, "chatId");
            Objects.requireNonNull(messageId, "messageId");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(senderName, "senderName");
        }
    }

    /**
     * The reply to {@code message} (empty when it holds no text and nothing is to be sent): a pairing
     * code for a chat nobody let in, else the reply of the assistant's turn. Handling the same message
     * again (its process died before the reply was stored) runs no second turn: the turn's run has an
     * id made from the message's, so the run already made is continued if it was cut short, and its
     * reply is given again. Messages of one chat are handled one at a time.
     */
    public Optional<String> reply(Inbound message) {
        if (message.text().isBlank()) {
            return Optional.empty();
        }
        ReentrantLock lock =
                chatLocks.computeIfAbsent(message.channel() + "\u0000" + message.chatId(), k -> new ReentrantLock());
        lock.lock();
        try {
            Optional<ChannelStore.Chat> chat = store.chat(message.channel(), message.chatId());
            if (chat.isEmpty()) {
                return Optional.of(pairingReply(message));
            }
            store.seen(chat.get(), clock.instant());
            return Optional.of(turn(chat.get(), message));
        } finally {
            lock.unlock();
        }
    }

    /** The id of the run that answers {@code message}: the same each time the message is handled. */
    static String runIdOf(Inbound message) {
        return "chat-" + message.channel() + "-"
                + UUID.nameUUIDFromBytes((message.channel() + "\u0000" + message.messageId()).getBytes(UTF_8));
    }

    private String turn(ChannelStore.Chat chat, Inbound message) {
        String text = message.text();
        String name = chat.assistant().isEmpty() ? defaultAssistant : chat.assistant();
        Optional<Assistant> assistant = assistants.find(name);
        boolean hebrew = hebrew(text);
        if (assistant.isEmpty()) {
            return hebrew
                    ? "העוזר '" + name + "' אינו זמין כאן."
                    : "The assistant '" + name + "' is not available here.";
        }
        try {
            String runId = runIdOf(message);
            Optional<Run> earlier = runner.store().findRun(runId);
            // Handled before (its process died before the reply was kept): no second turn.
            Optional<Turn> turn = earlier.isPresent()
                    ? again(assistant.get(), chat, earlier.get())
                    : Optional.of(assistant
                            .get()
                            .converse(
                                    runner,
                                    Message.of(chat.user(), text)
                                            .session(chat.channel() + ":" + chat.chatId())
                                            .runId(runId)));
            if (turn.isEmpty()) {
                return hebrew ? "בוצע." : "Done.";
            }
            store.subjects(chat, subjects(turn.get().json()), clock.instant());
            return turn.get().text().isBlank()
                    ? (hebrew ? "בוצע." : "Done.")
                    : turn.get().text();
        } catch (WeftException e) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "channels: a turn of chat " + chat.chatId() + " failed: " + e.getMessage());
            return (hebrew ? "לא הצלחתי: " : "I could not do that: ") + e.getMessage() + " (" + e.code() + ")";
        }
    }

    /**
     * The turn of a message handled before: its run, continued first if its process died while it
     * ran, and the reply the assistant gives for it.
     */
    private Optional<Turn> again(Assistant assistant, ChannelStore.Chat chat, Run run) {
        if (run.status() == RunStatus.RUNNING) {
            Optional<Graph> graph = assistant.graphOf(run);
            boolean recoverable = runner.recoverable().stream().anyMatch(r -> r.id().equals(run.id()));
            try {
                if (graph.isPresent() && recoverable) {
                    runner.recover(graph.get(), run.id());
                }
            } catch (WeftException taken) {
                // Another recoverer (weft serve's recovery watcher) took the run first.
                LOG.log(System.Logger.Level.INFO, "channels: run " + run.id() + " is recovered elsewhere: " + taken);
            }
            awaitEnd(run.id());
        }
        return assistant.turnOf(runner, chat.user(), run.id());
    }

    /** Waits, a minute at most, for run {@code runId} (being recovered by some process) to stop running. */
    private void awaitEnd(String runId) {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (System.nanoTime() < deadline
                && runner.store()
                        .findRun(runId)
                        .map(r -> r.status() == RunStatus.RUNNING)
                        .orElse(false)) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** A new code for an unknown chat, or its code again. */
    private String pairingReply(Inbound message) {
        boolean hebrew = hebrew(message.text());
        Optional<ChannelStore.Pairing> known = store.pendingFor(message.channel(), message.chatId(), clock.instant());
        if (known.isPresent()) {
            return pairingText(known.get(), hebrew);
        }
        // A code collides with another only by chance: a new one is drawn then.
        for (int attempt = 0; attempt < 3; attempt++) {
            ChannelStore.Pairing pairing = new ChannelStore.Pairing(
                    code(),
                    message.channel(),
                    message.chatId(),
                    message.senderName(),
                    clock.instant(),
                    clock.instant().plus(codeLifetime));
            if (store.addPairing(pairing, maxPending)) {
                return pairingText(pairing, hebrew);
            }
            Optional<ChannelStore.Pairing> raced =
                    store.pendingFor(message.channel(), message.chatId(), clock.instant());
            if (raced.isPresent()) {
                return pairingText(raced.get(), hebrew);
            }
        }
        return hebrew
                ? "לא הצלחתי ליצור קוד חיבור כרגע. נסו שוב."
                : "I could not make a pairing code just now. Please try again.";
    }

    /** Whether {@code text} is Hebrew by its words (a Hebrew name in an English line leaves it English). */
    private static boolean hebrew(String text) {
        return Language.of(text, Language.ENGLISH) == Language.HEBREW;
    }

    private String pairingText(ChannelStore.Pairing pairing, boolean hebrew) {
        long minutes = Math.max(
                1, (Duration.between(clock.instant(), pairing.expiresAt()).toSeconds() + 59) / 60);
        return hebrew
                ? "שלום! אני עדיין לא מכיר את הצ'אט הזה. קוד החיבור שלך: " + pairing.code()
                        + ". בקשו מהבעלים להריץ: weft channels approve " + pairing.code() + " (בתוקף " + minutes
                        + " דקות)."
                : "Hi! This chat is not let in yet. Your pairing code is " + pairing.code()
                        + ". Ask the owner to run: weft channels approve " + pairing.code() + " (valid for "
                        + minutes + " minutes).";
    }

    private String code() {
        StringBuilder code = new StringBuilder(8);
        for (int i = 0; i < 8; i++) {
            if (i == 4) {
                code.append('-');
            }
            code.append(CODE_LETTERS.charAt(random.nextInt(CODE_LETTERS.length())));
        }
        return code.toString();
    }

    /**
     * Approves pending code {@code code}: its chat talks as {@code user} (when empty, a user of its own
     * named {@code <channel>:<chat id>}) to {@code assistant} (when empty, the assistant of the channel
     * that receives its messages: {@code --assistant}, Memo by default).
     *
     * @throws NotFoundException ({@code E_NOT_FOUND}) for a code that is not pending (never given,
     *     approved already, or expired), or an assistant no module on the class path provides
     * @throws WeftException {@code E_BAD_INPUT} for a user id that is not 1-200 printable characters
     */
    public static ChannelStore.Chat approve(
            ChannelStore store, String code, Optional<String> user, Optional<String> assistant, Clock clock) {
        String normalized = code.strip().toUpperCase(java.util.Locale.ROOT);
        if (assistant.isPresent() && !Assistants.available().contains(assistant.get())) {
            throw new NotFoundException(
                    "no assistant '" + assistant.get() + "': there are " + String.join(", ", Assistants.available()));
        }
        Optional<ChannelStore.Pairing> pairing = store.pending(clock.instant()).stream()
                .filter(p -> p.code().equals(normalized))
                .findFirst();
        if (pairing.isEmpty()) {
            throw new NotFoundException("no pending pairing code '" + code + "' (codes expire; 'weft channels"
                    + " pending' lists those waiting)");
        }
        String who = user.orElse(pairing.get().channel() + ":" + pairing.get().chatId());
        if (who.isBlank() || who.length() > 200 || who.chars().anyMatch(Character::isISOControl)) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "a user id must be 1-200 printable characters");
        }
        return store.approve(normalized, who, assistant.orElse(""), clock.instant())
                .orElseThrow(() -> new NotFoundException("no pending pairing code '" + code + "'"));
    }

    /**
     * The ids a turn's results name (the tasks, events, lists it made or changed), found in its JSON:
     * the {@code id} of every object within {@code results[].data}, a few levels down.
     */
    static Set<String> subjects(JsonNode turn) {
        Set<String> ids = new LinkedHashSet<>();
        for (JsonNode result : turn.path("results")) {
            collect(result.path("data"), ids, 0);
        }
        return ids;
    }

    private static void collect(JsonNode node, Set<String> ids, int depth) {
        if (depth > 3) {
            return;
        }
        if (node.isObject()) {
            JsonNode id = node.get("id");
            if (id != null && id.isTextual() && !id.asText().isBlank()) {
                ids.add(id.asText());
            }
            node.forEach(child -> collect(child, ids, depth + 1));
        } else if (node.isArray()) {
            node.forEach(child -> collect(child, ids, depth + 1));
        }
    }

    /** Builds {@link Conversations}; every setter rejects a bad value at once. */
    public static final class Builder {
        private final ChannelStore store;
        private final Assistants assistants;
        private final Runner runner;
        private Clock clock = Clock.systemUTC();
        private Duration codeLifetime = Duration.ofHours(1);
        private int maxPending = 100;
        private String assistant;

        private Builder(ChannelStore store, Assistants assistants, Runner runner) {
            this.store = Objects.requireNonNull(store, "store");
            this.assistants = Objects.requireNonNull(assistants, "assistants");
            this.runner = Objects.requireNonNull(runner, "runner");
        }

        /** The clock pairing codes are made and expire on (tests move it). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** How long a pairing code stays valid (default one hour). */
        public Builder codeLifetime(Duration lifetime) {
            if (lifetime.isNegative() || lifetime.isZero()) {
                throw new IllegalArgumentException("a code's lifetime must be positive, was " + lifetime);
            }
            this.codeLifetime = lifetime;
            return this;
        }

        /**
         * How many codes a channel holds pending at once (default 100); past it the oldest is dropped, so a
         * flood of strangers never keeps the owner from getting a code.
         */
        public Builder maxPending(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("at least one code must be able to wait, was " + max);
            }
            this.maxPending = max;
            return this;
        }

        /** The assistant of chats approved without naming one (default: Memo when present). */
        public Builder assistant(String name) {
            Objects.requireNonNull(name, "name");
            assistants.get(name);
            this.assistant = name;
            return this;
        }

        public Conversations build() {
            return new Conversations(this);
        }
    }
}
