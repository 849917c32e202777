package dev.weft.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.plan.Risk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The remote A2A agents a person configured for the assistants to ask ({@code a2a.send}): those in
 * {@code $WEFT_HOME/agents.json} ({@code weft agents add}), and those of the setting {@code
 * WEFT_A2A_AGENTS}, which win over the file's of the same name. Both hold the same JSON, the file as
 * {@code {"agents": [...]}} and the setting as the bare array:
 *
 * <pre>{"name": "travel", "url": "https://travel.example/a2a/concierge", "keyEnv": "TRAVEL_KEY",
 *  "risk": "high", "says": ["travel agent", "סוכן הנסיעות"]}</pre>
 *
 * {@code keyEnv} names the setting holding the bearer key (the key itself is never written here);
 * {@code risk} is {@code high} by default (each message waits for a person's yes); {@code says} are
 * the words a person calls the agent by, besides its name. Anything else is {@code E_AGENTS_INVALID},
 * and nothing is changed. Immutable.
 */
public record A2aAgents(List<Entry> entries) {
    /** The setting of agents configured in the environment (a JSON array). */
    public static final String SETTING = "WEFT_A2A_AGENTS";

    /** The file under {@code WEFT_HOME} that {@code weft agents} keeps. */
    public static final String FILE = "agents.json";

    /** One configured agent and the words a person calls it by (its name always among them). */
    public record Entry(A2aAgent agent, List<String> says) {
        public Entry {
            Objects.requireNonNull(agent, "agent");
            says = List.copyOf(says);
        }

        /** The agent's name and every word it is called by, lower-case. */
        public List<String> callNames() {
            List<String> names = new ArrayList<>();
            names.add(agent.name().toLowerCase(Locale.ROOT));
            says.forEach(s -> names.add(s.strip().toLowerCase(Locale.ROOT)));
            return List.copyOf(names);
        }
    }

    public A2aAgents {
        entries = List.copyOf(entries);
        Map<String, Entry> seen = new LinkedHashMap<>();
        for (Entry entry : entries) {
            if (seen.put(entry.agent().name(), entry) != null) {
                throw invalid("two agents are named '" + entry.agent().name() + "'");
            }
        }
    }

    /** No agents. */
    public static A2aAgents none() {
        return new A2aAgents(List.of());
    }

    /**
     * The agents of {@code $WEFT_HOME/agents.json} under {@code home} and of {@code env}'s {@link #SETTING}.
     *
     * @throws WeftException {@code E_AGENTS_INVALID} when either does not read as agents
     */
    public static A2aAgents load(Path home, Map<String, String> env) {
        return readFile(home.resolve(FILE)).and(setting(env));
    }

    /**
     * The agents of {@code env}'s {@link #SETTING} alone (none when it is not set).
     *
     * @throws WeftException {@code E_AGENTS_INVALID} when it does not read as agents
     */
    public static A2aAgents setting(Map<String, String> env) {
        String setting = env.get(SETTING);
        return setting == null || setting.isBlank()
                ? none()
                : new A2aAgents(parseArray(parse(setting, SETTING), SETTING));
    }

    /** These agents and {@code others}, which win over these of the same name. */
    public A2aAgents and(A2aAgents others) {
        Map<String, Entry> byName = new LinkedHashMap<>();
        entries.forEach(e -> byName.put(e.agent().name(), e));
        others.entries().forEach(e -> byName.put(e.agent().name(), e));
        return new A2aAgents(new ArrayList<>(byName.values()));
    }

    /** The agents of the file {@code file} alone (none when it does not exist). */
    public static A2aAgents readFile(Path file) {
        if (!Files.exists(file)) {
            return none();
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        JsonNode root = parse(text, file.toString());
        if (!root.isObject() || !root.path("agents").isArray()) {
            throw invalid(file + " must hold {\"agents\": [...]}");
        }
        return new A2aAgents(parseArray(root.get("agents"), file.toString()));
    }

    /** Writes these agents to {@code file} whole (a temporary file moved over it, so a reader never sees half). */
    public void writeFile(Path file) {
        ObjectNode root = Json.object();
        ArrayNode array = root.putArray("agents");
        entries.forEach(e -> array.add(toJson(e)));
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(temporary, root.toPrettyString() + "\n", StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** These agents and {@code entry}, replacing one of the same name. */
    public A2aAgents with(Entry entry) {
        List<Entry> next = new ArrayList<>();
        entries.stream()
                .filter(e -> !e.agent().name().equals(entry.agent().name()))
                .forEach(next::add);
        next.add(entry);
        return new A2aAgents(next);
    }

    /** These agents without the one named {@code name}. */
    public A2aAgents without(String name) {
        return new A2aAgents(
                entries.stream().filter(e -> !e.agent().name().equals(name)).toList());
    }

    public Optional<Entry> find(String name) {
        return entries.stream().filter(e -> e.agent().name().equals(name)).findFirst();
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    public List<A2aAgent> agents() {
        return entries.stream().map(Entry::agent).toList();
    }

    /**
     * One agent's configuration as it is written and listed: its key's setting name, never the key.
     */
    public static ObjectNode toJson(Entry entry) {
        A2aAgent agent = entry.agent();
        ObjectNode node = Json.object();
        node.put("name", agent.name());
        node.put("url", agent.card().toString());
        agent.tokenEnv().ifPresent(env -> node.put("keyEnv", env));
        node.put("risk", agent.risk().name().toLowerCase(Locale.ROOT));
        ArrayNode says = node.putArray("says");
        entry.says().forEach(says::add);
        return node;
    }

    /**
     * One agent from what a person gave.
     *
     * @throws WeftException {@code E_AGENTS_INVALID} for a bad name, URL, key setting or risk
     */
    public static Entry entry(
            String name, String url, Optional<String> keyEnv, Optional<String> risk, List<String> says) {
        try {
            Risk level = risk.map(r -> switch (r.strip().toLowerCase(Locale.ROOT)) {
                        case "high" -> Risk.HIGH;
                        case "low" -> Risk.LOW;
                        default -> throw invalid("agent '" + name + "': risk must be 'high' or 'low', was '" + r + "'");
                    })
                    .orElse(Risk.HIGH);
            if (keyEnv.isPresent() && !keyEnv.get().matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw invalid(
                        "agent '" + name + "': the key's setting must be a variable name such as TRAVEL_KEY, was '"
                                + keyEnv.get() + "'");
            }
            for (String word : says) {
                if (word.isBlank()) {
                    throw invalid("agent '" + name + "': a word it is called by is blank");
                }
            }
            return new Entry(
                    new A2aAgent(name, java.net.URI.create(Objects.requireNonNull(url, "url")), keyEnv, level),
                    says.stream().map(String::strip).toList());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw invalid(e.getMessage());
        }
    }

    private static List<Entry> parseArray(JsonNode array, String where) {
        if (!array.isArray()) {
            throw invalid(where + " must be a JSON array of agents");
        }
        List<Entry> entries = new ArrayList<>();
        for (JsonNode node : array) {
            if (!node.isObject()) {
                throw invalid(where + ": each agent is an object with name and url");
            }
            for (var field : (Iterable<String>) node::fieldNames) {
                if (!List.of("name", "url", "keyEnv", "risk", "says").contains(field)) {
                    throw invalid(where + ": an agent has no field '" + field + "'");
                }
            }
            List<String> says = new ArrayList<>();
            node.path("says").forEach(s -> says.add(s.asText()));
            entries.add(entry(
                    text(node, "name", where),
                    text(node, "url", where),
                    Optional.ofNullable(node.get("keyEnv")).map(JsonNode::asText),
                    Optional.ofNullable(node.get("risk")).map(JsonNode::asText),
                    says));
        }
        return entries;
    }

    private static String text(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual() || value.asText().isBlank()) {
            throw invalid(where + ": an agent needs a '" + field + "'");
        }
        return value.asText();
    }

    private static JsonNode parse(String text, String where) {
        try {
            return Json.mapper().readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw invalid(where + " is not JSON: " + e.getOriginalMessage());
        }
    }

    private static WeftException invalid(String message) {
        return new WeftException(ErrorCode.E_AGENTS_INVALID, "A2A agents: " + message);
    }
}
