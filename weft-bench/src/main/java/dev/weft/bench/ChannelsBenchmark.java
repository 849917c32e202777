package dev.weft.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.assistant.Assistants;
import dev.weft.channels.ChannelStore;
import dev.weft.channels.Conversations;
import dev.weft.channels.FakeBotApi;
import dev.weft.channels.TelegramChannel;
import dev.weft.core.Json;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.mcp.AssistantTools;
import dev.weft.memo.Memo;
import dev.weft.memo.MemoAssistant;
import dev.weft.server.ApiKeys;
import dev.weft.server.WeftServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code weft-bench channels}: messages through the Telegram channel to Memo's reply on SQLite (the
 * real channel code polling a fake Bot API on loopback), one at a time (p50/p99 from the message to the
 * reply) and from several chats at once (messages per second); and MCP tool calls over Streamable HTTP
 * (the SDK's client against {@code weft serve}) beside the same call in-process through the same
 * recorded run ({@link AssistantTools}), and beside the bare tool (the floor).
 */
public final class ChannelsBenchmark {
    private static final String USAGE =
            "usage: weft-bench channels [--messages N] [--chats C] [--calls N]   (defaults 200, 8, 500; N >= 10)";
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static final Map<String, NumericOptions.Option> OPTIONS = new LinkedHashMap<>();

    static {
        OPTIONS.put("messages", new NumericOptions.Option(200, 10));
        OPTIONS.put("chats", new NumericOptions.Option(8, 1));
        OPTIONS.put("calls", new NumericOptions.Option(500, 10));
    }

    private ChannelsBenchmark() {}

    public static void run(String[] args) {
        NumericOptions options = NumericOptions.parse(args, OPTIONS, USAGE);
        telegram(options.intValue("messages"), options.intValue("chats"));
        mcp(options.intValue("calls"));
    }

    private static String message(int i) {
        return i % 2 == 0 ? "remind me tomorrow at 9 to call client " + i : "תזכיר לי מחר ב-9 להתקשר ללקוח " + i;
    }

    private static void telegram(int messages, int chats) {
        try (RunStore store = DurableStores.sqlite();
                FakeBotApi api = new FakeBotApi()) {
            Memo memo = Memo.open(store);
            Assistants assistants = Assistants.of(new MemoAssistant(memo));
            ChannelStore channelStore = ChannelStore.open(store);
            Conversations conversations = Conversations.builder(
                            channelStore,
                            assistants,
                            Runner.builder().store(store).build())
                    .maxPending(chats + 1)
                    .build();
            try (TelegramChannel telegram =
                    TelegramChannel.create(api.url(), FakeBotApi.TOKEN, conversations, Duration.ofSeconds(1))) {
                telegram.start();
                for (int chat = 1; chat <= chats + 1; chat++) {
                    long id = chat;
                    api.say(id, "c" + chat, "hi");
                    String text = api.await(m -> m.chatId().equals(Long.toString(id)), WAIT)
                            .text();
                    Conversations.approve(
                            channelStore,
                            text.replaceAll("(?s).*pairing code is ([A-Z0-9-]+).*", "$1"),
                            Optional.empty(),
                            Optional.empty(),
                            Clock.systemUTC());
                }
                System.err.println("weft-bench channels: " + messages + " Telegram messages, one at a time...");
                long sequentialChat = chats + 1;
                for (int i = 0; i < messages / 4; i++) {
                    roundTrip(api, sequentialChat, -1 - i);
                }
                long[] nanos = new long[messages];
                for (int i = 0; i < messages; i++) {
                    nanos[i] = roundTrip(api, sequentialChat, i);
                }
                Arrays.sort(nanos);
                System.out.printf(
                        "engine=weft part=telegram_to_memo_reply store=sqlite messages=%d p50_ms=%.2f p99_ms=%.2f"
                                + " max_ms=%.2f%n",
                        messages, percentile(nanos, 0.50), percentile(nanos, 0.99), nanos[messages - 1] / 1e6);

                System.err.println(
                        "weft-bench channels: " + messages + " Telegram messages from " + chats + " chats at once...");
                int before = api.sent().size();
                long started = System.nanoTime();
                for (int i = 0; i < messages; i++) {
                    api.say(1 + (i % chats), "c", message(100_000 + i));
                }
                api.await(m -> api.sent().size() >= before + messages, WAIT.multipliedBy(5));
                double seconds = (System.nanoTime() - started) / 1e9;
                System.out.printf(
                        "engine=weft part=telegram_parallel store=sqlite chats=%d messages=%d messages_per_s=%.1f%n",
                        chats, messages, messages / seconds);
            }
        }
    }

    /** Sends message {@code i} from {@code chat} and waits for its reply; the nanoseconds between. */
    private static long roundTrip(FakeBotApi api, long chat, int i) {
        String marker = Integer.toString(Math.abs(i) + 1_000_000);
        String text = i % 2 == 0
                ? "remind me tomorrow at 9 to call client " + marker
                : "תזכיר לי מחר ב-9 להתקשר ללקוח " + marker;
        long sent = System.nanoTime();
        api.say(chat, "c", text);
        FakeBotApi.Sent reply = api.await(m -> m.text().contains(marker) && m.nanos() >= sent, WAIT);
        return reply.nanos() - sent;
    }

    private static void mcp(int calls) {
        try (RunStore store = DurableStores.sqlite()) {
            Memo memo = Memo.open(store);
            Assistants assistants = Assistants.of(new MemoAssistant(memo));
            WeftServer server = WeftServer.builder()
                    .store(store)
                    .assistants(assistants)
                    .port(0)
                    .reminders(false)
                    .recoveryInterval(Duration.ZERO)
                    .webhookInterval(Duration.ZERO)
                    .start();
            try {
                String key = ApiKeys.open(store)
                        .create("bench", false, Instant.now())
                        .secret();
                Map<String, Object> args = Map.of("operation", "getAll");
                ObjectNode json = Json.object().put("operation", "getAll");
                McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(
                                        server.uri().toString())
                                .endpoint("/mcp")
                                .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + key))
                                .build())
                        .requestTimeout(WAIT)
                        .build();
                client.initialize();
                System.err.println("weft-bench channels: " + calls + " MCP tool calls over Streamable HTTP...");
                for (int i = 0; i < calls / 4; i++) {
                    client.callTool(McpSchema.CallToolRequest.builder("memo_taskOperations")
                            .arguments(args)
                            .build());
                }
                long[] http = new long[calls];
                for (int i = 0; i < calls; i++) {
                    long t0 = System.nanoTime();
                    McpSchema.CallToolResult result =
                            client.callTool(McpSchema.CallToolRequest.builder("memo_taskOperations")
                                    .arguments(args)
                                    .build());
                    http[i] = System.nanoTime() - t0;
                    if (Boolean.TRUE.equals(result.isError())) {
                        throw new IllegalStateException("the MCP call failed: " + result.content());
                    }
                }
                client.closeGracefully();
                report("mcp_streamable_http", http);

                AssistantTools tools = AssistantTools.create(assistants, server.runner());
                for (int i = 0; i < calls / 4; i++) {
                    tools.call("bench", "memo_taskOperations", json, AssistantTools.Confirmer.NONE);
                }
                long[] inProcess = new long[calls];
                for (int i = 0; i < calls; i++) {
                    long t0 = System.nanoTime();
                    tools.call("bench", "memo_taskOperations", json, AssistantTools.Confirmer.NONE);
                    inProcess[i] = System.nanoTime() - t0;
                }
                report("in_process_recorded_run", inProcess);

                var tool = assistants.get("memo").tools();
                for (int i = 0; i < calls / 4; i++) {
                    tool.call("taskOperations", json, bareContext("warm-" + i));
                }
                long[] bare = new long[calls];
                for (int i = 0; i < calls; i++) {
                    var context = bareContext("bare-" + i);
                    long t0 = System.nanoTime();
                    tool.call("taskOperations", json, context);
                    bare[i] = System.nanoTime() - t0;
                }
                report("in_process_bare_tool", bare);
            } finally {
                server.close();
            }
        }
    }

    /** A context of its own for each call, so no call is answered from an earlier one's once-result. */
    private static dev.weft.plan.ToolContext bareContext(String runId) {
        return dev.weft.plan.ToolContext.detached(
                runId, Optional.of("bench"), "call", dev.weft.core.TimeSource.system());
    }

    private static void report(String part, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double total = Arrays.stream(nanos).sum() / 1e9;
        System.out.printf(
                "engine=weft part=%s store=sqlite tool=memo_taskOperations.getAll calls=%d calls_per_s=%.0f"
                        + " p50_ms=%.3f p99_ms=%.3f%n",
                part, nanos.length, nanos.length / total, percentile(sorted, 0.50), percentile(sorted, 0.99));
    }

    private static double percentile(long[] sorted, double q) {
        return sorted[(int) Math.ceil(q * sorted.length) - 1] / 1e6;
    }
}
