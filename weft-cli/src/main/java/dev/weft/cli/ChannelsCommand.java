package dev.weft.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.assistant.Assistant;
import dev.weft.assistant.Assistants;
import dev.weft.assistant.ServedServices;
import dev.weft.channels.ChannelStore;
import dev.weft.channels.Conversations;
import dev.weft.channels.InboxWorker;
import dev.weft.channels.NoticeDelivery;
import dev.weft.channels.TelegramChannel;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code weft channels}: the assistants on messaging apps. {@code telegram} runs a Telegram bot (long
 * polling) until stopped; {@code pending} lists the pairing codes unknown chats were given, {@code
 * approve} lets one in, {@code list} shows the chats let in, {@code outbox} the replies not known to
 * have arrived. WhatsApp is served by {@code weft serve}
 * ({@code /channels/whatsapp}, configured by {@code WEFT_WHATSAPP_*}).
 */
@Command(
        name = "channels",
        mixinStandardHelpOptions = true,
        description = "The assistants on Telegram (weft channels telegram) and WhatsApp (weft serve with"
                + " WEFT_WHATSAPP_*): pairing codes, approvals, chats.",
        subcommands = {
            ChannelsCommand.Telegram.class,
            ChannelsCommand.Pending.class,
            ChannelsCommand.Approve.class,
            ChannelsCommand.ListChats.class,
            ChannelsCommand.Outbox.class
        })
final class ChannelsCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code weft channels telegram --token-from-env VAR [--api-url URL] [--assistant memo]}. */
    @Command(
            name = "telegram",
            mixinStandardHelpOptions = true,
            description = "Runs a Telegram bot until SIGTERM or Ctrl-C: messages of approved chats go to the"
                    + " assistant, others get a pairing code; reminders are sent to the chat they were set from.")
    static final class Telegram implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(
                names = "--token-from-env",
                required = true,
                paramLabel = "VAR",
                description = "The environment variable holding the bot's token (from @BotFather).")
        String tokenVariable;

        @Option(
                names = "--api-url",
                paramLabel = "URL",
                description = "The Bot API's base URL (default https://api.telegram.org; a self-hosted Bot API"
                        + " server's).")
        String apiUrl;

        @Option(
                names = "--assistant",
                paramLabel = "NAME",
                description = "The assistant chats talk to unless approved with another (default memo).")
        String assistant = "memo";

        @Option(
                names = "--db",
                paramLabel = "URL",
                description = "sqlite:PATH or jdbc:postgresql://… (default: WEFT_DB, else SQLite under WEFT_HOME).")
        String db;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            String token = Env.get().get(tokenVariable);
            RunStore store;
            try {
                if (token == null || token.isBlank()) {
                    throw new WeftException(
                            ErrorCode.E_BAD_INPUT,
                            "the environment variable " + tokenVariable + " holds no bot token (set it to the token"
                                    + " @BotFather gave)");
                }
                URI api;
                try {
                    api = apiUrl == null ? TelegramChannel.DEFAULT_API : new URI(apiUrl);
                } catch (java.net.URISyntaxException e) {
                    throw new WeftException(ErrorCode.E_BAD_INPUT, "--api-url '" + apiUrl + "' is not a URL");
                }
                if (api.getScheme() == null || !api.getScheme().startsWith("http") || api.getHost() == null) {
                    throw new WeftException(ErrorCode.E_BAD_INPUT, "--api-url must be an http(s) URL, was " + apiUrl);
                }
                store = Storage.open(db);
            } catch (WeftException e) {
                return WorkflowCommand.failure(spec, false, e);
            }
            List<AutoCloseable> running = new ArrayList<>();
            try {
                Assistants assistants = Storage.assistants(store);
                Conversations conversations = Conversations.builder(
                                ChannelStore.open(store),
                                assistants,
                                Storage.runner(store).build())
                        .assistant(assistant)
                        .build();
                Duration retention = InboxWorker.retentionFromEnvironment(Env.get());
                TelegramChannel telegram = TelegramChannel.create(
                        apiUrl == null ? TelegramChannel.DEFAULT_API : URI.create(apiUrl),
                        token,
                        conversations,
                        Duration.ofSeconds(30),
                        retention);
                String bot = telegram.me().path("username").asText("bot");
                telegram.start();
                running.add(telegram);
                for (Assistant a : assistants.all()) {
                    if (a.notices().isPresent()) {
                        running.add(a.notices()
                                .get()
                                .start("weft-telegram-"
                                        + ProcessHandle.current().pid()));
                    }
                }
                PrintWriter err = spec.commandLine().getErr();
                ServedServices services = ServedServices.start(assistants, java.util.Map.of(), (name, line) -> {
                    err.println("weft channels: " + name + ": " + line);
                    err.flush();
                });
                running.add(services);
                running.add(NoticeDelivery.start(
                        conversations.store(),
                        assistants,
                        List.of(telegram),
                        Duration.ofSeconds(1),
                        Clock.systemUTC(),
                        retention));
                out.println("weft channels: Telegram bot @" + bot + " is answering (assistant '" + assistant
                        + "'); unknown chats get a pairing code for 'weft channels approve CODE'. SIGTERM or Ctrl-C"
                        + " stops it."
                        + (services.names().isEmpty()
                                ? ""
                                : " In the background: " + String.join(", ", services.names()) + "."));
                out.flush();
            } catch (WeftException e) {
                stop(running, store);
                return WorkflowCommand.failure(spec, false, e);
            }
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(
                            () -> {
                                stop(running, store);
                                stopped.countDown();
                            },
                            "weft-telegram-stop"));
            try {
                stopped.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ExitCodes.OK;
        }

        private static void stop(List<AutoCloseable> running, RunStore store) {
            for (AutoCloseable closeable : running.reversed()) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    // stopping: what could not stop goes with the process
                }
            }
            store.close();
        }
    }

    /** {@code weft channels pending [--json]}. */
    @Command(
            name = "pending",
            mixinStandardHelpOptions = true,
            description = "The pairing codes unknown chats were given and that have not expired.")
    static final class Pending extends StoreCommand {
        @Option(
                names = "--json",
                description =
                        "{\"pending\": [{\"code\", \"channel\", \"chat\", \"name\", \"createdAt\", \"expiresAt\"}]}")
        boolean json;

        @Override
        boolean json() {
            return json;
        }

        @Override
        int call(RunStore store, PrintWriter out) {
            printListed(
                    out,
                    json,
                    "pending",
                    ChannelStore.open(store).pending(java.time.Instant.now()),
                    (p, row) -> row.put("code", p.code())
                            .put("channel", p.channel())
                            .put("chat", p.chatId())
                            .put("name", p.name())
                            .put("createdAt", p.createdAt().toString())
                            .put("expiresAt", p.expiresAt().toString()),
                    "No chat is waiting to be let in.",
                    p -> p.code() + "  " + p.channel() + " chat " + p.chatId() + " (" + p.name() + "), expires "
                            + p.expiresAt());
            return ExitCodes.OK;
        }
    }

    /** {@code weft channels approve CODE [--user ID] [--assistant NAME]}. */
    @Command(
            name = "approve",
            mixinStandardHelpOptions = true,
            description = "Lets the chat that was given CODE in: it talks as --user (default: a user of its own,"
                    + " CHANNEL:CHAT) to --assistant (default: the channel's).")
    static final class Approve extends StoreCommand {
        @Parameters(index = "0", paramLabel = "CODE")
        String code;

        @Option(
                names = "--user",
                paramLabel = "ID",
                description = "The user the chat acts as (yours, to share your data).")
        String user;

        @Option(names = "--assistant", paramLabel = "NAME", description = "The assistant the chat talks to.")
        String assistant;

        @Override
        boolean json() {
            return false;
        }

        @Override
        int call(RunStore store, PrintWriter out) {
            ChannelStore.Chat chat = Conversations.approve(
                    ChannelStore.open(store),
                    code,
                    Optional.ofNullable(user),
                    Optional.ofNullable(assistant),
                    Clock.systemUTC());
            out.println("Approved: " + chat.channel() + " chat " + chat.chatId() + " talks as '" + chat.user() + "' to "
                    + (chat.assistant().isEmpty() ? "the channel's assistant" : "'" + chat.assistant() + "'") + ".");
            return ExitCodes.OK;
        }
    }

    /** {@code weft channels list [--json]}. */
    @Command(name = "list", mixinStandardHelpOptions = true, description = "The chats let in, and whom they talk as.")
    static final class ListChats extends StoreCommand {
        @Option(
                names = "--json",
                description = "{\"chats\": [{\"channel\", \"chat\", \"user\", \"assistant\", \"pairedAt\"}]}")
        boolean json;

        @Override
        boolean json() {
            return json;
        }

        @Override
        int call(RunStore store, PrintWriter out) {
            printListed(
                    out,
                    json,
                    "chats",
                    ChannelStore.open(store).chats(),
                    (c, row) -> row.put("channel", c.channel())
                            .put("chat", c.chatId())
                            .put("user", c.user())
                            .put("assistant", c.assistant())
                            .put("pairedAt", c.pairedAt().toString()),
                    "No chats yet.",
                    c -> c.channel() + " chat " + c.chatId() + " → user '" + c.user() + "'"
                            + (c.assistant().isEmpty() ? "" : ", assistant '" + c.assistant() + "'"));
            return ExitCodes.OK;
        }
    }

    /** {@code weft channels outbox [--json]}. */
    @Command(
            name = "outbox",
            mixinStandardHelpOptions = true,
            description = "The replies not known to have arrived: UNKNOWN (the process died while the provider was"
                    + " asked; it may have arrived, and is not sent again) and FAILED (the provider refused every"
                    + " try).")
    static final class Outbox extends StoreCommand {
        @Option(
                names = "--json",
                description = "{\"replies\": [{\"channel\", \"chat\", \"message\", \"status\", \"attempts\","
                        + " \"detail\", \"text\", \"updatedAt\"}]}")
        boolean json;

        @Override
        boolean json() {
            return json;
        }

        @Override
        int call(RunStore store, PrintWriter out) {
            printListed(
                    out,
                    json,
                    "replies",
                    ChannelStore.open(store).unsent(),
                    (r, row) -> row.put("channel", r.channel())
                            .put("chat", r.chatId())
                            .put("message", r.messageId())
                            .put("status", r.status().name())
                            .put("attempts", r.attempts())
                            .put("detail", r.detail())
                            .put("text", r.text())
                            .put("updatedAt", r.updatedAt().toString()),
                    "Every reply was sent.",
                    r -> r.status() + "  " + r.channel() + " chat " + r.chatId() + ", reply to message " + r.messageId()
                            + (r.detail().isEmpty() ? "" : ": " + r.detail()));
            return ExitCodes.OK;
        }
    }

    /**
     * Prints {@code items}: as {@code {"KEY": [rows]}} with {@code json}, else one line each, or {@code none}
     * when there are none.
     */
    private static <T> void printListed(
            PrintWriter out,
            boolean json,
            String key,
            List<T> items,
            java.util.function.BiConsumer<T, ObjectNode> row,
            String none,
            java.util.function.Function<T, String> line) {
        if (json) {
            ObjectNode root = Json.object();
            ArrayNode list = root.putArray(key);
            items.forEach(item -> row.accept(item, list.addObject()));
            out.println(Json.write(root));
        } else if (items.isEmpty()) {
            out.println(none);
        } else {
            items.forEach(item -> out.println(line.apply(item)));
        }
    }
}
