package dev.weft.llm.test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.weft.core.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A fake model provider on an ephemeral local port: it answers OpenAI's {@code POST
 * /v1/chat/completions} and Anthropic's {@code POST /v1/messages}, plain or streamed (server-sent
 * events, when the request asks for {@code "stream": true}), with canned {@link Reply replies} taken
 * in order, and OpenAI's {@code POST /v1/embeddings} with {@link #embedding a vector made from the
 * words} of each input, and records every request it receives. Real clients are pointed at {@link
 * #openAiBaseUrl()} or {@link #anthropicBaseUrl()}. Thread-safe.
 */
public final class FakeModelServer implements AutoCloseable {
    /** The OpenAI chat-completions route. */
    public static final String OPENAI_PATH = "/v1/chat/completions";
    /** The Anthropic messages route. */
    public static final String ANTHROPIC_PATH = "/v1/messages";
    /** The OpenAI embeddings route. */
    public static final String EMBEDDINGS_PATH = "/v1/embeddings";
    /** How many dimensions the fake's embeddings have. */
    public static final int EMBEDDING_DIMENSIONS = 64;

    private final HttpServer server;
    private final ExecutorService executor;
    private final CountDownLatch closing = new CountDownLatch(1);
    private final Deque<Reply> replies = new ArrayDeque<>();
    private final List<RecordedRequest> requests = new ArrayList<>();
    private @Nullable Reply fallback;
    private @Nullable String requiredKey;
    private volatile @Nullable CountDownLatch resume;
    private int sequence;

    private FakeModelServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** Starts a server on {@code 127.0.0.1} at a free port. */
    public static FakeModelServer start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
            FakeModelServer fake = new FakeModelServer(server, executor);
            server.setExecutor(executor);
            server.createContext("/", fake::handle);
            server.start();
            return fake;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the fake model server", e);
        }
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The base URL an OpenAI client is given: {@code http://127.0.0.1:PORT/v1}. */
    public String openAiBaseUrl() {
        return baseUrl() + "/v1";
    }

    /** The base URL an Anthropic client is given: {@code http://127.0.0.1:PORT/v1/}. */
    public String anthropicBaseUrl() {
        return baseUrl() + "/v1/";
    }

    /** Queues replies; each request takes the next one, whichever route it came to. */
    public synchronized FakeModelServer enqueue(Reply... replies) {
        for (Reply reply : replies) {
            this.replies.add(Objects.requireNonNull(reply, "reply"));
        }
        return this;
    }

    /** The reply given when the queue is empty (without one, such a request gets a 400 saying so). */
    public synchronized FakeModelServer fallback(Reply reply) {
        this.fallback = Objects.requireNonNull(reply, "reply");
        return this;
    }

    /**
     * Answers 401 to every request that does not carry {@code key} (as {@code Authorization: Bearer
     * KEY} or {@code x-api-key: KEY}).
     */
    public synchronized FakeModelServer requireKey(String key) {
        this.requiredKey = Objects.requireNonNull(key, "key");
        return this;
    }

    /**
     * Holds every streamed reply after its first event until {@code resume} is counted down (or the
     * server closes), so that a test sees what the client made of the first tokens while the model is
     * still writing. Without it, streamed events are sent one after another at once.
     */
    public FakeModelServer pauseStreamsAfterFirstEvent(CountDownLatch resume) {
        this.resume = Objects.requireNonNull(resume, "resume");
        return this;
    }

    /** Every request received so far, in order. */
    public synchronized List<RecordedRequest> requests() {
        return List.copyOf(requests);
    }

    /** The last request received. */
    public synchronized RecordedRequest lastRequest() {
        if (requests.isEmpty()) {
            throw new IllegalStateException("the fake model server has received no request");
        }
        return requests.get(requests.size() - 1);
    }

    /** Replies still queued. */
    public synchronized int pending() {
        return replies.size();
    }

    /** Stops at once: delayed replies are cut short and their connections closed. */
    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String text = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            JsonNode body = text.isBlank() ? NullNode.getInstance() : Json.parse(text, "request body");
            Map<String, List<String>> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders()
                    .forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), List.copyOf(values)));
            RecordedRequest request = new RecordedRequest(exchange.getRequestMethod(), path, headers, body);
            if (path.equals(EMBEDDINGS_PATH)) {
                embeddings(exchange, request, body);
                return;
            }
            Route route = switch (path) {
                case OPENAI_PATH -> Route.OPENAI;
                case ANTHROPIC_PATH -> Route.ANTHROPIC;
                default -> null;
            };
            Reply reply;
            int id;
            synchronized (this) {
                requests.add(request);
                id = ++sequence;
                if (route == null) {
                    reply = Reply.error(404, "the fake model server has no route " + path);
                } else if (requiredKey != null && !request.carriesKey(requiredKey)) {
                    reply = Reply.error(401, "Incorrect API key provided");
                } else if (!replies.isEmpty()) {
                    reply = replies.poll();
                } else if (fallback != null) {
                    reply = fallback;
                } else {
                    reply = Reply.error(400, "the fake model server has no canned reply left");
                }
            }
            if (!reply.delay().isZero() && closing.await(reply.delay().toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
            Route format = route == null ? Route.OPENAI : route;
            if (reply.status() != 200) {
                reply.retryAfter()
                        .ifPresent(after ->
                                exchange.getResponseHeaders().add("Retry-After", Long.toString(after.toSeconds())));
                send(exchange, reply.status(), "application/json", Json.write(format.error(reply)));
            } else if (body.path("stream").asBoolean(false)) {
                sendEvents(exchange, format.events(reply, id, model(body)));
            } else {
                send(exchange, 200, "application/json", Json.write(format.message(reply, id, model(body))));
            }
        } catch (IOException e) {
            // the client went away (a timeout, or the server is closing): nothing to answer
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void embeddings(HttpExchange exchange, RecordedRequest request, JsonNode body) throws IOException {
        boolean allowed;
        synchronized (this) {
            requests.add(request);
            allowed = requiredKey == null || request.carriesKey(requiredKey);
        }
        if (!allowed) {
            send(
                    exchange,
                    401,
                    "application/json",
                    Json.write(Route.OPENAI.error(Reply.error(401, "Incorrect API key provided"))));
            return;
        }
        ObjectNode root = Json.object();
        root.put("object", "list");
        root.put("model", model(body));
        ArrayNode data = root.putArray("data");
        List<String> inputs = new ArrayList<>();
        if (body.path("input").isArray()) {
            body.get("input").forEach(input -> inputs.add(input.asText()));
        } else {
            inputs.add(body.path("input").asText());
        }
        int tokens = 0;
        for (int i = 0; i < inputs.size(); i++) {
            ObjectNode item = data.addObject();
            item.put("object", "embedding");
            item.put("index", i);
            ArrayNode vector = item.putArray("embedding");
            for (float v : embedding(inputs.get(i))) {
                vector.add(v);
            }
            tokens += inputs.get(i).split("\\s+").length;
        }
        root.putObject("usage").put("prompt_tokens", tokens).put("total_tokens", tokens);
        send(exchange, 200, "application/json", Json.write(root));
    }

    /**
     * The fake's embedding of {@code text}: each lower-cased word adds one to a dimension chosen by its
     * hash, so texts sharing words are close and texts sharing none are orthogonal.
     */
    public static float[] embedding(String text) {
        float[] vector = new float[EMBEDDING_DIMENSIONS];
        for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!word.isEmpty()) {
                vector[Math.floorMod(word.hashCode(), EMBEDDING_DIMENSIONS)] += 1;
            }
        }
        return vector;
    }

    private static String model(JsonNode body) {
        return body.path("model").asText("fake-model");
    }

    private static void send(HttpExchange exchange, int status, String contentType, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private void sendEvents(HttpExchange exchange, List<Event> events) throws IOException, InterruptedException {
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            for (Event event : events) {
                StringBuilder text = new StringBuilder();
                if (event.name() != null) {
                    text.append("event: ").append(event.name()).append('\n');
                }
                text.append("data: ").append(event.data()).append("\n\n");
                out.write(text.toString().getBytes(StandardCharsets.UTF_8));
                out.flush();
                CountDownLatch held = resume;
                if (event == events.get(0) && held != null) {
                    while (held.getCount() > 0 && closing.getCount() > 0) {
                        held.await(50, TimeUnit.MILLISECONDS);
                    }
                }
            }
        }
    }

    /** One request as received: its method, path, headers (names in lower case) and JSON body. */
    public record RecordedRequest(String method, String path, Map<String, List<String>> headers, JsonNode body) {
        public RecordedRequest {
            headers = Map.copyOf(headers);
        }

        /** The first value of header {@code name} (any case). */
        public Optional<String> header(String name) {
            List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
            return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
        }

        /** Whether the request asked for a streamed reply. */
        public boolean streamed() {
            return body.path("stream").asBoolean(false);
        }

        boolean carriesKey(String key) {
            return header("authorization").map(("Bearer " + key)::equals).orElse(false)
                    || header("x-api-key").map(key::equals).orElse(false);
        }
    }

    /** A tool call a reply carries: the tool's name and its arguments as JSON text. */
    public record ToolCall(String name, String arguments) {
        public ToolCall {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(arguments, "arguments");
        }
    }

    /**
     * A canned reply: text or tool calls with token usage, or an error status, optionally after a
     * delay. Immutable; the {@code with…} methods return copies.
     *
     * @param chunkSize how many characters of text each streamed delta carries
     */
    public record Reply(
            int status,
            String text,
            List<ToolCall> toolCalls,
            int inputTokens,
            int outputTokens,
            int cachedTokens,
            Duration delay,
            Optional<Duration> retryAfter,
            int chunkSize) {

        public Reply {
            Objects.requireNonNull(text, "text");
            toolCalls = List.copyOf(toolCalls);
            Objects.requireNonNull(delay, "delay");
            Objects.requireNonNull(retryAfter, "retryAfter");
            if (chunkSize < 1) {
                throw new IllegalArgumentException("chunk size must be positive, was " + chunkSize);
            }
        }

        /** A 200 reply whose content is {@code text}; 12 input and 5 output tokens. */
        public static Reply text(String text) {
            return new Reply(200, text, List.of(), 12, 5, 0, Duration.ZERO, Optional.empty(), 4);
        }

        /** A 200 reply that calls tools. */
        public static Reply toolCalls(ToolCall... calls) {
            return new Reply(200, "", List.of(calls), 12, 5, 0, Duration.ZERO, Optional.empty(), 4);
        }

        /** An error reply with {@code status} and {@code message} in the provider's error format. */
        public static Reply error(int status, String message) {
            if (status < 400 || status > 599) {
                throw new IllegalArgumentException("an error status is 400-599, was " + status);
            }
            return new Reply(status, message, List.of(), 0, 0, 0, Duration.ZERO, Optional.empty(), 4);
        }

        /** 429 Too Many Requests with a {@code Retry-After} header (whole seconds). */
        public static Reply rateLimited(Duration retryAfter) {
            return error(429, "Rate limit reached").withRetryAfter(retryAfter);
        }

        public Reply withUsage(int inputTokens, int outputTokens, int cachedTokens) {
            return new Reply(
                    status, text, toolCalls, inputTokens, outputTokens, cachedTokens, delay, retryAfter, chunkSize);
        }

        /** Waits {@code delay} before answering (cut short when the server closes). */
        public Reply withDelay(Duration delay) {
            return new Reply(
                    status, text, toolCalls, inputTokens, outputTokens, cachedTokens, delay, retryAfter, chunkSize);
        }

        public Reply withRetryAfter(Duration retryAfter) {
            return new Reply(
                    status,
                    text,
                    toolCalls,
                    inputTokens,
                    outputTokens,
                    cachedTokens,
                    delay,
                    Optional.of(retryAfter),
                    chunkSize);
        }

        public Reply withChunkSize(int chunkSize) {
            return new Reply(
                    status, text, toolCalls, inputTokens, outputTokens, cachedTokens, delay, retryAfter, chunkSize);
        }

        List<String> chunks() {
            List<String> chunks = new ArrayList<>();
            for (int i = 0; i < text.length(); i += chunkSize) {
                chunks.add(text.substring(i, Math.min(text.length(), i + chunkSize)));
            }
            return chunks;
        }
    }

    private record Event(@Nullable String name, String data) {}

    /** How each provider writes messages, streamed events and errors. */
    private enum Route {
        OPENAI {
            @Override
            ObjectNode message(Reply reply, int id, String model) {
                ObjectNode root = Json.object();
                root.put("id", "chatcmpl-" + id);
                root.put("object", "chat.completion");
                root.put("created", 1_700_000_000L);
                root.put("model", model);
                ObjectNode choice = root.putArray("choices").addObject();
                choice.put("index", 0);
                ObjectNode message = choice.putObject("message");
                message.put("role", "assistant");
                if (reply.toolCalls().isEmpty()) {
                    message.put("content", reply.text());
                } else {
                    message.putNull("content");
                    ArrayNode calls = message.putArray("tool_calls");
                    for (int i = 0; i < reply.toolCalls().size(); i++) {
                        ToolCall call = reply.toolCalls().get(i);
                        ObjectNode c = calls.addObject();
                        c.put("id", "call_" + (i + 1));
                        c.put("type", "function");
                        c.putObject("function").put("name", call.name()).put("arguments", call.arguments());
                    }
                }
                choice.put("finish_reason", reply.toolCalls().isEmpty() ? "stop" : "tool_calls");
                root.set("usage", usage(reply));
                return root;
            }

            private ObjectNode usage(Reply reply) {
                ObjectNode usage = Json.object();
                usage.put("prompt_tokens", reply.inputTokens());
                usage.put("completion_tokens", reply.outputTokens());
                usage.put("total_tokens", reply.inputTokens() + reply.outputTokens());
                usage.putObject("prompt_tokens_details").put("cached_tokens", reply.cachedTokens());
                return usage;
            }

            private ObjectNode chunk(int id, String model) {
                ObjectNode root = Json.object();
                root.put("id", "chatcmpl-" + id);
                root.put("object", "chat.completion.chunk");
                root.put("created", 1_700_000_000L);
                root.put("model", model);
                return root;
            }

            @Override
            List<Event> events(Reply reply, int id, String model) {
                List<Event> events = new ArrayList<>();
                boolean first = true;
                for (String piece : reply.chunks()) {
                    ObjectNode chunk = chunk(id, model);
                    ObjectNode choice = chunk.putArray("choices").addObject();
                    choice.put("index", 0);
                    ObjectNode delta = choice.putObject("delta");
                    if (first) {
                        delta.put("role", "assistant");
                        first = false;
                    }
                    delta.put("content", piece);
                    choice.putNull("finish_reason");
                    events.add(new Event(null, Json.write(chunk)));
                }
                for (int i = 0; i < reply.toolCalls().size(); i++) {
                    ToolCall call = reply.toolCalls().get(i);
                    ObjectNode chunk = chunk(id, model);
                    ObjectNode choice = chunk.putArray("choices").addObject();
                    choice.put("index", 0);
                    ObjectNode c =
                            choice.putObject("delta").putArray("tool_calls").addObject();
                    c.put("index", i);
                    c.put("id", "call_" + (i + 1));
                    c.put("type", "function");
                    c.putObject("function").put("name", call.name()).put("arguments", call.arguments());
                    choice.putNull("finish_reason");
                    events.add(new Event(null, Json.write(chunk)));
                }
                ObjectNode last = chunk(id, model);
                ObjectNode choice = last.putArray("choices").addObject();
                choice.put("index", 0);
                choice.putObject("delta");
                choice.put("finish_reason", reply.toolCalls().isEmpty() ? "stop" : "tool_calls");
                events.add(new Event(null, Json.write(last)));
                ObjectNode usage = chunk(id, model);
                usage.putArray("choices");
                usage.set("usage", usage(reply));
                events.add(new Event(null, Json.write(usage)));
                events.add(new Event(null, "[DONE]"));
                return events;
            }

            @Override
            ObjectNode error(Reply reply) {
                ObjectNode root = Json.object();
                ObjectNode error = root.putObject("error");
                error.put("message", reply.text());
                error.put("type", reply.status() == 429 ? "rate_limit_exceeded" : "error_" + reply.status());
                error.putNull("code");
                return root;
            }
        },
        ANTHROPIC {
            @Override
            ObjectNode message(Reply reply, int id, String model) {
                ObjectNode root = Json.object();
                root.put("id", "msg_" + id);
                root.put("type", "message");
                root.put("role", "assistant");
                root.put("model", model);
                ArrayNode content = root.putArray("content");
                if (!reply.text().isEmpty()) {
                    content.addObject().put("type", "text").put("text", reply.text());
                }
                for (int i = 0; i < reply.toolCalls().size(); i++) {
                    ToolCall call = reply.toolCalls().get(i);
                    ObjectNode use = content.addObject();
                    use.put("type", "tool_use");
                    use.put("id", "toolu_" + (i + 1));
                    use.put("name", call.name());
                    use.set("input", Json.parse(call.arguments(), "tool call arguments"));
                }
                root.put("stop_reason", reply.toolCalls().isEmpty() ? "end_turn" : "tool_use");
                root.putNull("stop_sequence");
                root.set("usage", usage(reply, reply.outputTokens()));
                return root;
            }

            private ObjectNode usage(Reply reply, int outputTokens) {
                ObjectNode usage = Json.object();
                usage.put("input_tokens", reply.inputTokens());
                usage.put("output_tokens", outputTokens);
                usage.put("cache_read_input_tokens", reply.cachedTokens());
                usage.put("cache_creation_input_tokens", 0);
                return usage;
            }

            @Override
            List<Event> events(Reply reply, int id, String model) {
                List<Event> events = new ArrayList<>();
                ObjectNode start = Json.object();
                start.put("type", "message_start");
                ObjectNode message = start.putObject("message");
                message.put("id", "msg_" + id);
                message.put("type", "message");
                message.put("role", "assistant");
                message.put("model", model);
                message.putArray("content");
                message.putNull("stop_reason");
                message.putNull("stop_sequence");
                message.set("usage", usage(reply, 1));
                events.add(new Event("message_start", Json.write(start)));
                int index = 0;
                if (!reply.text().isEmpty()) {
                    ObjectNode blockStart = Json.object();
                    blockStart.put("type", "content_block_start");
                    blockStart.put("index", index);
                    blockStart.putObject("content_block").put("type", "text").put("text", "");
                    events.add(new Event("content_block_start", Json.write(blockStart)));
                    for (String piece : reply.chunks()) {
                        ObjectNode delta = Json.object();
                        delta.put("type", "content_block_delta");
                        delta.put("index", index);
                        delta.putObject("delta").put("type", "text_delta").put("text", piece);
                        events.add(new Event("content_block_delta", Json.write(delta)));
                    }
                    events.add(new Event("content_block_stop", Json.write(blockStop(index))));
                    index++;
                }
                for (int i = 0; i < reply.toolCalls().size(); i++, index++) {
                    ToolCall call = reply.toolCalls().get(i);
                    ObjectNode blockStart = Json.object();
                    blockStart.put("type", "content_block_start");
                    blockStart.put("index", index);
                    ObjectNode use = blockStart.putObject("content_block");
                    use.put("type", "tool_use");
                    use.put("id", "toolu_" + (i + 1));
                    use.put("name", call.name());
                    use.putObject("input");
                    events.add(new Event("content_block_start", Json.write(blockStart)));
                    ObjectNode delta = Json.object();
                    delta.put("type", "content_block_delta");
                    delta.put("index", index);
                    delta.putObject("delta").put("type", "input_json_delta").put("partial_json", call.arguments());
                    events.add(new Event("content_block_delta", Json.write(delta)));
                    events.add(new Event("content_block_stop", Json.write(blockStop(index))));
                }
                ObjectNode messageDelta = Json.object();
                messageDelta.put("type", "message_delta");
                ObjectNode delta = messageDelta.putObject("delta");
                delta.put("stop_reason", reply.toolCalls().isEmpty() ? "end_turn" : "tool_use");
                delta.putNull("stop_sequence");
                messageDelta.putObject("usage").put("output_tokens", reply.outputTokens());
                events.add(new Event("message_delta", Json.write(messageDelta)));
                events.add(new Event("message_stop", "{\"type\":\"message_stop\"}"));
                return events;
            }

            private ObjectNode blockStop(int index) {
                ObjectNode stop = Json.object();
                stop.put("type", "content_block_stop");
                stop.put("index", index);
                return stop;
            }

            @Override
            ObjectNode error(Reply reply) {
                ObjectNode root = Json.object();
                root.put("type", "error");
                ObjectNode error = root.putObject("error");
                error.put(
                        "type",
                        switch (reply.status()) {
                            case 401 -> "authentication_error";
                            case 429 -> "rate_limit_error";
                            case 400 -> "invalid_request_error";
                            default -> "api_error";
                        });
                error.put("message", reply.text());
                return root;
            }
        };

        abstract ObjectNode message(Reply reply, int id, String model);

        abstract List<Event> events(Reply reply, int id, String model);

        abstract ObjectNode error(Reply reply);
    }
}
