package dev.weft.cli;

import static dev.weft.cli.CommandRunner.weft;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.weft.assistant.Assistants;
import dev.weft.channels.ChannelStore;
import dev.weft.channels.Conversations;
import dev.weft.channels.FakeBotApi;
import dev.weft.channels.FakeGraphApi;
import dev.weft.core.Json;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.Memo;
import dev.weft.memo.MemoAssistant;
import dev.weft.memo.Reminders;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.OperationContext;
import dev.weft.memo.data.TaskOperations;
import dev.weft.store.Stores;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The phone channels and the reminders, killed at their worst moments: a real {@code weft channels
 * telegram} or {@code weft serve} JVM, paused at a named point of its delivery ({@code
 * -Dweft.fault.pause}) and killed there with SIGKILL, then started again against the same store and
 * the same fakes of the Telegram Bot API and the WhatsApp Cloud API at the wire. Counted: every
 * message answered (none lost), none answered twice, no effect (a task) made twice. On {@code main}
 * before the inbox, each of the Telegram and WhatsApp cases lost its message: the dedupe row was
 * written before handling and the Telegram offset lived in memory, so the restarted process never
 * answered it.
 */
final class ChannelsFaultIT {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String SECRET = "app-secret-for-fault-tests";
    private static final String NUMBER = "972501234567";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "killed at {0}")
    @ValueSource(
            strings = {"channels.before-turn", "channels.after-turn", "channels.before-send", "channels.after-send"})
    void aTelegramBotKilledWhileAnsweringAnswersEachMessageOnceAfterARestart(String point) throws Exception {
        String db = "sqlite:" + dir.resolve("weft.db");
        paired(db, "telegram", "601");
        try (FakeBotApi api = new FakeBotApi()) {
            List<String> args = List.of(
                    "channels",
                    "telegram",
                    "--token-from-env",
                    "TELEGRAM_TOKEN",
                    "--api-url",
                    api.url().toString(),
                    "--db",
                    db);
            Map<String, String> env = Map.of("TELEGRAM_TOKEN", FakeBotApi.TOKEN);
            Child first = Child.start(dir, args, env, Optional.of(point));
            first.await(line -> line.contains("is answering"));
            api.say(601, "Dana", "remind me tomorrow at 9 to call Dana");
            first.await(line -> line.equals("weft-fault: paused at " + point));
            first.kill();

            Child second = Child.start(dir, args, env, Optional.empty());
            try {
                second.await(line -> line.contains("is answering"));
                api.await(m -> m.chatId().equals("601") && m.text().contains("call Dana"), WAIT);
                // A later message of the same chat, answered after the first: by then any second reply
                // to the first would have been sent.
                api.say(601, "Dana", "create a shopping list with milk and eggs");
                api.await(m -> m.chatId().equals("601") && m.text().contains("milk"), WAIT);
            } finally {
                second.kill();
            }
            List<FakeBotApi.Sent> replies =
                    api.sent().stream().filter(m -> m.chatId().equals("601")).toList();
            assertThat(replies)
                    .as("one reply to each of the two messages: none lost, none doubled")
                    .hasSize(2);
        }
        assertThat(tasksOf(db, "dana")).as("the reminder made once").isEqualTo(1);
        assertUnknownOnlyWhenKilledAfterTheSend(db, point);
    }

    /**
     * Kills at no chosen point: three bots in a row are killed a random while into a burst of messages
     * (in a turn, between writes, mid-send — wherever the moment falls), and a fourth answers the rest.
     * Every message is answered exactly once, or — only when the kill fell between the provider taking
     * the reply and the outbox saying so — its reply is listed UNKNOWN; no reminder is made twice.
     */
    @Test
    void aTelegramBotKilledAtRandomMomentsOfABurstAnswersEveryMessageOnce() throws Exception {
        String db = "sqlite:" + dir.resolve("weft.db");
        paired(db, "telegram", "602");
        List<String> names =
                List.of("Avi", "Ben", "Chen", "Dalia", "Eli", "Fanny", "Gili", "Hila", "Itai", "Yoni", "Keren", "Lea");
        java.util.Random random = new java.util.Random(35);
        try (FakeBotApi api = new FakeBotApi()) {
            List<String> args = List.of(
                    "channels",
                    "telegram",
                    "--token-from-env",
                    "TELEGRAM_TOKEN",
                    "--api-url",
                    api.url().toString(),
                    "--db",
                    db);
            Map<String, String> env = Map.of("TELEGRAM_TOKEN", FakeBotApi.TOKEN);
            for (int round = 0; round < 3; round++) {
                Child bot = Child.start(dir, args, env, Optional.empty());
                bot.await(line -> line.contains("is answering"));
                for (String name : names.subList(round * 4, round * 4 + 4)) {
                    api.say(602, "Dana", "remind me tomorrow at 9 to call " + name);
                }
                // The kill lands wherever this random while ends: the moment is not chosen.
                Thread.sleep(100 + random.nextInt(1500));
                bot.kill();
            }
            Child last = Child.start(dir, args, env, Optional.empty());
            try {
                last.await(line -> line.contains("is answering"));
                api.say(602, "Dana", "create a shopping list with milk and eggs");
                api.await(m -> m.chatId().equals("602") && m.text().contains("milk"), WAIT);
            } finally {
                last.kill();
            }
            JsonNode unknown =
                    weft("channels", "outbox", "--json", "--db", db).json().path("replies");
            for (String name : names) {
                long replies = api.sent().stream()
                        .filter(m -> m.text().contains("call " + name))
                        .count();
                assertThat(replies)
                        .as("replies to 'call " + name + "' (outbox: " + unknown + ")")
                        .isLessThanOrEqualTo(1);
                if (replies == 0) {
                    assertThat(unknown.toString())
                            .as("a reply not sent is listed as unknown")
                            .contains("UNKNOWN");
                }
            }
        }
        assertThat(tasksOf(db, "dana")).as("each reminder made once").isEqualTo(names.size());
    }

    @ParameterizedTest(name = "killed at {0}")
    @ValueSource(strings = {"channels.after-turn", "channels.after-send"})
    void aWhatsAppWebhookKilledWhileAnsweringAnswersEachMessageOnceAfterARestart(String point) throws Exception {
        String db = "sqlite:" + dir.resolve("weft.db");
        paired(db, "whatsapp", NUMBER);
        try (FakeGraphApi graph = new FakeGraphApi()) {
            Map<String, String> env = whatsApp(graph);
            List<String> args = List.of("serve", "--port", "0", "--db", db);
            Child first = Child.start(dir, args, env, Optional.of(point));
            URI base = first.listening();
            String delivery = delivery("wamid.first", "remind me tomorrow at 9 to call Dana");
            assertThat(post(base, delivery).statusCode())
                    .as("acknowledged once kept")
                    .isEqualTo(200);
            first.await(line -> line.equals("weft-fault: paused at " + point));
            first.kill();

            Child second = Child.start(dir, args, env, Optional.empty());
            try {
                URI again = second.listening();
                // Meta delivers again what it is not sure of: the same message id, answered once.
                assertThat(post(again, delivery).statusCode()).isEqualTo(200);
                graph.await(m -> m.to().equals(NUMBER) && m.text().contains("call Dana"), WAIT);
                assertThat(post(again, delivery("wamid.second", "create a shopping list with milk and eggs"))
                                .statusCode())
                        .isEqualTo(200);
                graph.await(m -> m.to().equals(NUMBER) && m.text().contains("milk"), WAIT);
            } finally {
                second.kill();
            }
            assertThat(graph.sent().stream().filter(m -> m.to().equals(NUMBER)))
                    .as("one reply to each of the two messages: none lost, none doubled")
                    .hasSize(2);
        }
        assertThat(tasksOf(db, "dana")).as("the reminder made once").isEqualTo(1);
        assertUnknownOnlyWhenKilledAfterTheSend(db, point);
    }

    /**
     * A reminder falls due while {@code weft serve} is down (killed); the next {@code weft serve} fires it
     * late and is killed before the chat's copy is sent; the one after delivers it, late, once, to the
     * page's event stream, the user's webhook and the WhatsApp chat — and a second reminder, due after
     * that restart, arrives after it everywhere, so nothing came twice in between. On {@code main} before
     * the outbox, the chat's copy was claimed and then sent: a process killed between the two lost it.
     */
    @Test
    void aReminderDueWhileServeWasDownIsDeliveredLateOnceToThePageTheWebhookAndTheChat() throws Exception {
        String db = "sqlite:" + dir.resolve("weft.db");
        paired(db, "whatsapp", NUMBER);
        String key = weft("keys", "create", "--user", "dana", "--json", "--db", db)
                .json()
                .path("key")
                .asText();
        try (FakeGraphApi graph = new FakeGraphApi();
                Receiver receiver = new Receiver()) {
            Map<String, String> env = whatsApp(graph);
            List<String> args = List.of("serve", "--port", "0", "--db", db);
            Child first = Child.start(dir, args, env, Optional.empty());
            URI base = first.listening();
            HttpResponse<String> hook = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(base.resolve("api/memo/webhook"))
                                    .header("Authorization", "Bearer " + key)
                                    .header("Content-Type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofString("{\"url\": \"" + receiver.url() + "\"}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(hook.statusCode()).as(hook.body()).isEqualTo(200);
            first.kill();

            // Set three minutes ago, due two minutes ago: it fell due while no process ran.
            Instant now = Instant.now();
            reminder(db, "stretch", now.minus(Duration.ofMinutes(3)), now.minus(Duration.ofMinutes(2)));

            // The next serve fires it late and queues it for the chat; killed before it is sent.
            Child second = Child.start(dir, args, env, Optional.of("channels.before-send"));
            second.listening();
            second.await(line -> line.equals("weft-fault: paused at channels.before-send"));
            second.kill();

            Child third = Child.start(dir, args, env, Optional.empty());
            try {
                URI again = third.listening();
                Stream page = Stream.open(again, key);
                graph.await(m -> m.to().equals(NUMBER) && m.text().contains("stretch"), WAIT);
                receiver.await(body -> body.path("text").asText().equals("stretch"));
                page.await(event -> event.path("text").asText().equals("stretch"));

                reminder(db, "drink water", Instant.now(), Instant.now().plusSeconds(1));
                graph.await(m -> m.to().equals(NUMBER) && m.text().contains("drink water"), WAIT);
                receiver.await(body -> body.path("text").asText().equals("drink water"));
                page.await(event -> event.path("text").asText().equals("drink water"));

                assertThat(graph.sent().stream().filter(m -> m.text().contains("stretch")))
                        .singleElement()
                        .satisfies(m -> assertThat(m.text()).startsWith("⏰").contains("late"));
                // A webhook is at least once: the serve killed mid-delivery may have sent it, and the next
                // sends it again with the same id (X-Weft-Delivery), which the receiver deduplicates by.
                assertThat(receiver.bodies().stream()
                                .filter(b -> b.path("text").asText().equals("stretch"))
                                .peek(b ->
                                        assertThat(b.path("late").asBoolean()).isTrue())
                                .map(b -> b.path("id").asText())
                                .distinct())
                        .hasSize(1);
                assertThat(page.events().stream()
                                .filter(e -> e.path("text").asText().equals("stretch")))
                        .singleElement()
                        .satisfies(e -> assertThat(e.path("late").asBoolean()).isTrue());
                assertThat(page.events().stream()
                                .filter(e -> e.path("text").asText().equals("drink water")))
                        .singleElement()
                        .satisfies(e -> assertThat(e.path("late").asBoolean()).isFalse());
            } finally {
                third.kill();
            }
        }
    }

    private static void assertUnknownOnlyWhenKilledAfterTheSend(String db, String point) {
        JsonNode outbox =
                weft("channels", "outbox", "--json", "--db", db).json().path("replies");
        if (point.equals("channels.after-send")) {
            assertThat(outbox)
                    .as("the reply the provider took before the kill is not sent again, and a person can see it")
                    .hasSize(1);
            assertThat(outbox.get(0).path("status").asText()).isEqualTo("UNKNOWN");
        } else {
            assertThat(outbox).isEmpty();
        }
    }

    /** Lets {@code chat} of {@code channel} in as user {@code dana}, as the owner would. */
    private static void paired(String db, String channel, String chat) {
        try (RunStore store = Stores.open(db)) {
            Memo memo = Memo.open(store);
            ChannelStore chats = ChannelStore.open(store);
            Conversations conversations = Conversations.builder(
                            chats,
                            Assistants.of(new MemoAssistant(memo)),
                            Runner.builder().store(store).build())
                    .build();
            String pairing = conversations
                    .reply(new Conversations.Inbound(channel, chat, "pair-" + chat, "hello", "Dana"))
                    .orElseThrow();
            String code = pairing.replaceAll("(?s).*pairing code is ([A-Z0-9-]+).*", "$1");
            Conversations.approve(chats, code, Optional.of("dana"), Optional.empty(), Clock.systemUTC());
            memo.data().user("dana", "en", ZoneOffset.UTC, Instant.now());
        }
    }

    private static long tasksOf(String db, String user) {
        try (RunStore store = Stores.open(db)) {
            return MemoData.open(store).tasks().all(user).size();
        }
    }

    /** A reminder of {@code text} for {@code dana}, set at {@code setAt} and due at {@code due}. */
    private static void reminder(String db, String text, Instant setAt, Instant due) {
        try (RunStore store = Stores.open(db)) {
            MemoData data = MemoData.open(store);
            ObjectNode args = Json.object();
            args.put("operation", "create");
            args.put("text", text);
            args.put("dueDate", due.atOffset(ZoneOffset.UTC).toString());
            args.put("reminder", "0 minutes");
            ObjectNode result = new TaskOperations(data)
                    .apply(args, new OperationContext("dana", ZoneOffset.UTC, setAt, "fault-" + text));
            new Reminders(data, () -> setAt)
                    .sync("dana", Set.of(result.path("task").path("id").asText()), setAt);
        }
    }

    private static Map<String, String> whatsApp(FakeGraphApi graph) {
        return Map.of(
                "WEFT_WHATSAPP_VERIFY_TOKEN",
                "verify",
                "WEFT_WHATSAPP_APP_SECRET",
                SECRET,
                "WEFT_WHATSAPP_TOKEN",
                FakeGraphApi.TOKEN,
                "WEFT_WHATSAPP_PHONE_NUMBER_ID",
                FakeGraphApi.PHONE_NUMBER_ID,
                "WEFT_WHATSAPP_GRAPH_URL",
                graph.url().toString());
    }

    private static String delivery(String messageId, String text) {
        ObjectNode root = Json.object();
        root.put("object", "whatsapp_business_account");
        ObjectNode value = root.putArray("entry")
                .addObject()
                .put("id", "WABA")
                .putArray("changes")
                .addObject()
                .put("field", "messages")
                .putObject("value");
        value.put("messaging_product", "whatsapp");
        value.putObject("metadata").put("phone_number_id", FakeGraphApi.PHONE_NUMBER_ID);
        value.putArray("contacts")
                .addObject()
                .put("wa_id", NUMBER)
                .putObject("profile")
                .put("name", "Dana");
        ObjectNode message = value.putArray("messages").addObject();
        message.put("from", NUMBER);
        message.put("id", messageId);
        message.put("timestamp", "1732600000");
        message.put("type", "text");
        message.putObject("text").put("body", text);
        return Json.write(root);
    }

    private static HttpResponse<String> post(URI base, String body) throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(base.resolve("channels/whatsapp"))
                                .header("Content-Type", "application/json")
                                .header(
                                        "X-Hub-Signature-256",
                                        "sha256=" + HexFormat.of().formatHex(mac.doFinal(bytes)))
                                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + WAIT + ": " + what);
            }
            Thread.sleep(50);
        }
    }

    /** A {@code weft} JVM of this test's class path, and the lines it prints. */
    private record Child(Process process, BlockingQueue<String> lines, List<String> seen) {
        static Child start(Path dir, List<String> args, Map<String, String> env, Optional<String> pause)
                throws IOException {
            List<String> command = new ArrayList<>(List.of(
                    ProcessHandle.current().info().command().orElse("java"),
                    "--enable-native-access=ALL-UNNAMED",
                    "-cp",
                    System.getProperty("java.class.path")));
            pause.ifPresent(point -> command.add("-Dweft.fault.pause=" + point));
            command.add(Main.class.getName());
            command.addAll(args);
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().putAll(env);
            builder.environment()
                    .put(
                            "WEFT_HOME",
                            Files.createDirectories(dir.resolve("home")).toString());
            Process process = builder.start();
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            List<String> seen = new CopyOnWriteArrayList<>();
            Thread.ofPlatform().daemon().start(() -> {
                try (BufferedReader in =
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = in.readLine()) != null; ) {
                        seen.add(line);
                        lines.add(line);
                    }
                } catch (IOException ended) {
                    // the process was killed
                }
            });
            return new Child(process, lines, seen);
        }

        /** Waits for a line that {@code matches}; fails with what the process printed if none comes. */
        String await(Predicate<String> matches) throws InterruptedException {
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (true) {
                String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (line == null) {
                    throw new AssertionError("no such line within " + WAIT + "; the process printed: " + seen);
                }
                if (matches.test(line)) {
                    return line;
                }
            }
        }

        /** The base URL {@code weft serve} says it listens on. */
        URI listening() throws InterruptedException {
            Matcher url =
                    Pattern.compile("listening on (http://\\S+/)").matcher(await(l -> l.contains("listening on")));
            assertThat(url.find()).isTrue();
            return URI.create(url.group(1));
        }

        /** SIGKILL, and the wait for the process to be gone. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** A user's webhook receiver: a real HTTP server on a loopback port, keeping each body it is sent. */
    private static final class Receiver implements AutoCloseable {
        private final HttpServer server;
        private final List<JsonNode> bodies = new CopyOnWriteArrayList<>();

        Receiver() throws IOException {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                bodies.add(Json.parse(
                        new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), "delivery"));
                exchange.sendResponseHeaders(204, -1);
                exchange.close();
            });
            server.start();
        }

        URI url() {
            return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hook");
        }

        List<JsonNode> bodies() {
            return List.copyOf(bodies);
        }

        void await(Predicate<JsonNode> matches) throws InterruptedException {
            ChannelsFaultIT.await(() -> bodies.stream().anyMatch(matches), "a webhook delivery; got " + bodies);
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    /** The page's stream of notifications ({@code GET /api/memo/notifications}, server-sent events). */
    private record Stream(List<JsonNode> events) {
        static Stream open(URI base, String key) {
            List<JsonNode> events = new CopyOnWriteArrayList<>();
            HttpClient.newHttpClient()
                    .sendAsync(
                            HttpRequest.newBuilder(base.resolve("api/memo/notifications"))
                                    .header("Authorization", "Bearer " + key)
                                    .header("Accept", "text/event-stream")
                                    .build(),
                            HttpResponse.BodyHandlers.ofLines())
                    .thenAccept(response -> response.body()
                            .filter(line -> line.startsWith("data:"))
                            .forEach(line -> events.add(
                                    Json.parse(line.substring("data:".length()).strip(), "an event"))));
            return new Stream(events);
        }

        void await(Predicate<JsonNode> matches) throws InterruptedException {
            ChannelsFaultIT.await(() -> events.stream().anyMatch(matches), "an event on the page; got " + events);
        }
    }
}
