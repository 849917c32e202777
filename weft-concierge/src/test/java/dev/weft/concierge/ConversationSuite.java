package dev.weft.concierge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.concierge.shop.DemoShop;
import dev.weft.core.Json;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Conversations in the shape of τ²-bench's retail tasks: a customer's scripted turns, and the shop as it
 * must be at the end. Each runs on the demo shop loaded afresh, and is graded by the end state — what
 * changed in the shop, compared with what must have changed, and nothing else — and by what must have
 * been said. Used by {@code ConversationsTest} (in {@code ./mvnw verify}) and by {@code weft-bench
 * concierge}.
 */
public final class ConversationSuite {
    /** Where the conversations are kept, on the class path. */
    public static final String CORPUS = "/dev/weft/concierge/conversations.json";

    /** One conversation: its id, language, the customer's turns, and the end state it must reach. */
    public record Conversation(String id, String language, List<JsonNode> turns, JsonNode expect) {
        public Conversation {
            Objects.requireNonNull(id, "id");
            turns = List.copyOf(turns);
        }
    }

    /** How one conversation went: whether it passed, why not, and how long each turn took (ns). */
    public record Outcome(String id, String language, boolean passed, List<String> problems, List<Long> turnNanos) {
        public Outcome {
            problems = List.copyOf(problems);
            turnNanos = List.copyOf(turnNanos);
        }
    }

    private ConversationSuite() {}

    /** Every conversation of the corpus. */
    public static List<Conversation> corpus() {
        return corpus(CORPUS);
    }

    /** Every conversation of a file of the corpus's format on the class path ({@code resource}). */
    public static List<Conversation> corpus(String resource) {
        try (InputStream in = ConversationSuite.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the class path");
            }
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The conversations of a file of the corpus's format. */
    public static List<Conversation> read(java.nio.file.Path file) {
        try (InputStream in = java.nio.file.Files.newInputStream(file)) {
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Conversation> read(InputStream in) {
        try {
            List<Conversation> conversations = new ArrayList<>();
            for (JsonNode c : Json.mapper().readTree(in)) {
                List<JsonNode> turns = new ArrayList<>();
                c.path("turns").forEach(turns::add);
                conversations.add(new Conversation(
                        c.path("id").asText(), c.path("language").asText(), turns, c.path("expect")));
            }
            return conversations;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code conversation} on the demo shop loaded afresh, as session {@code session} of user {@code user}. */
    public static Outcome run(
            Concierge concierge, Runner runner, Conversation conversation, String user, String session) {
        DemoShop.load(concierge.shop(), Instant.parse("2026-11-24T08:00:00Z"));
        ObjectNode before = concierge.shop().snapshot();
        List<String> problems = new ArrayList<>();
        List<Long> nanos = new ArrayList<>();
        StringBuilder said = new StringBuilder();
        int index = 0;
        for (JsonNode turn : conversation.turns()) {
            index++;
            String text = turn.path("say").asText();
            long start = System.nanoTime();
            Concierge.Reply reply;
            try {
                reply = concierge.converse(runner, user, session, text, Optional.empty());
            } catch (WeftException e) {
                nanos.add(System.nanoTime() - start);
                problems.add("turn " + index + " (" + text + ") failed: " + e.code() + " " + e.getMessage());
                break;
            }
            nanos.add(System.nanoTime() - start);
            said.append(reply.text()).append('\n');
            if (turn.has("goal") && !turn.path("goal").asText().equals(reply.goal())) {
                problems.add("turn " + index + " (" + text + "): goal " + reply.goal() + ", expected "
                        + turn.path("goal").asText() + "; reply: " + reply.text());
            }
            if (turn.has("language") && !turn.path("language").asText().equals(reply.language())) {
                problems.add("turn " + index + ": language " + reply.language() + ", expected "
                        + turn.path("language").asText());
            }
            if (turn.has("waits") && turn.path("waits").asBoolean() != reply.waiting()) {
                problems.add("turn " + index + " (" + text + "): " + (reply.waiting() ? "waits" : "does not wait")
                        + " for a yes; reply: " + reply.text());
            }
            for (JsonNode words : turn.path("replyHas")) {
                if (!contains(reply.text(), words.asText())) {
                    problems.add("turn " + index + " (" + text + "): the reply does not say \"" + words.asText()
                            + "\": " + reply.text());
                }
            }
        }
        for (JsonNode words : conversation.expect().path("said")) {
            if (!contains(said.toString(), words.asText())) {
                problems.add("nothing said \"" + words.asText() + "\"");
            }
        }
        problems.addAll(compare(before, concierge.shop().snapshot(), conversation.expect()));
        return new Outcome(conversation.id(), conversation.language(), problems.isEmpty(), problems, nanos);
    }

    private static boolean contains(String text, String words) {
        return text.toLowerCase(Locale.ROOT).contains(words.toLowerCase(Locale.ROOT));
    }

    /**
     * What changed between {@code before} and {@code after}, against what {@code expect} says must have:
     * orders (status, address, items) by id, new orders, customers' addresses, and returns, exchanges,
     * refunds and tickets; anything else that changed is a problem too. Stock follows from the changes and
     * is not compared.
     */
    static List<String> compare(JsonNode before, JsonNode after, JsonNode expect) {
        List<String> problems = new ArrayList<>();
        JsonNode expectedOrders = expect.path("orders");
        for (Iterator<Map.Entry<String, JsonNode>> it =
                        after.path("orders").properties().iterator();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            String id = entry.getKey();
            JsonNode now = entry.getValue();
            JsonNode was = before.path("orders").path(id);
            JsonNode wanted = expectedOrders.path(id);
            if (was.isMissingNode()) {
                continue;
            }
            for (String field : List.of("status", "address", "items")) {
                JsonNode value = wanted.has(field) ? wanted.get(field) : was.get(field);
                if (!value.equals(now.get(field))) {
                    problems.add("order " + id + ": " + field + " is " + now.get(field) + ", expected " + value);
                }
            }
        }
        List<JsonNode> created = new ArrayList<>();
        after.path("orders").properties().forEach(e -> {
            if (before.path("orders").path(e.getKey()).isMissingNode()) {
                ObjectNode order = e.getValue().deepCopy();
                order.put("id", e.getKey());
                created.add(order);
            }
        });
        problems.addAll(
                sameItems("new order", created, expect.path("newOrders"), List.of("customer", "items", "status")));
        JsonNode addresses = expect.path("addresses");
        after.path("addresses").properties().forEach(e -> {
            JsonNode value = addresses.has(e.getKey())
                    ? addresses.get(e.getKey())
                    : before.path("addresses").get(e.getKey());
            if (!value.equals(e.getValue())) {
                problems.add("customer " + e.getKey() + ": address is " + e.getValue() + ", expected " + value);
            }
        });
        for (String list : List.of("returns", "exchanges", "refunds", "tickets")) {
            List<JsonNode> made = new ArrayList<>();
            after.path(list).forEach(made::add);
            List<JsonNode> was = new ArrayList<>();
            before.path(list).forEach(was::add);
            made.subList(0, Math.min(was.size(), made.size())).clear();
            List<String> keys = new ArrayList<>();
            expect.path(list)
                    .forEach(x -> x.fieldNames().forEachRemaining(k -> {
                        if (!keys.contains(k)) {
                            keys.add(k);
                        }
                    }));
            problems.addAll(sameItems(list.substring(0, list.length() - 1), made, expect.path(list), keys));
        }
        return problems;
    }

    /** {@code made} and {@code wanted} hold the same things, compared on {@code keys}. */
    private static List<String> sameItems(String what, List<JsonNode> made, JsonNode wanted, List<String> keys) {
        List<String> problems = new ArrayList<>();
        List<JsonNode> left = new ArrayList<>(made);
        for (JsonNode want : wanted) {
            JsonNode match = null;
            for (JsonNode m : left) {
                boolean all = true;
                for (String key : keys) {
                    if (want.has(key) && !want.get(key).equals(m.get(key))) {
                        all = false;
                    }
                }
                if (all) {
                    match = m;
                    break;
                }
            }
            if (match == null) {
                problems.add("no " + what + " like " + want + " (made: " + made + ")");
            } else {
                left.remove(match);
            }
        }
        for (JsonNode extra : left) {
            problems.add("an unexpected " + what + ": " + extra);
        }
        return problems;
    }

    /** The outcomes as one line per conversation that failed, and the tally. */
    public static String report(List<Outcome> outcomes) {
        StringBuilder out = new StringBuilder();
        long passed = outcomes.stream().filter(Outcome::passed).count();
        for (Outcome o : outcomes) {
            if (!o.passed()) {
                out.append(o.id())
                        .append(": ")
                        .append(String.join(" | ", o.problems()))
                        .append('\n');
            }
        }
        out.append(passed).append('/').append(outcomes.size()).append(" conversations end as they must");
        return out.toString();
    }

    static ArrayNode ids(List<Outcome> outcomes) {
        ArrayNode ids = Json.mapper().createArrayNode();
        outcomes.forEach(o -> ids.add(o.id()));
        return ids;
    }
}
