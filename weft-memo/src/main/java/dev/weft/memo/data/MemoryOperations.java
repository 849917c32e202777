package dev.weft.memo.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.WeftException;
import dev.weft.llm.Embedder;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Seed 002's {@code memoryOperations} over one user's memories: store, search, update, delete,
 * summarize and getContext (and restore, for undo). A search finds memories by their words
 * (full-text, Hebrew prefixes and final letters folded) and by their meaning (the cosine of their
 * vectors), and fuses the two rankings by reciprocal rank; each hit says why it matched. A memory
 * whose vector could not be made (the embedding model unreachable) is still kept and found by its
 * words, and gets its vector at a later search. Thread-safe.
 */
public final class MemoryOperations {
    public static final List<String> OPERATIONS =
            List.of("store", "search", "update", "delete", "summarize", "getContext", "restore");

    /** Reciprocal rank fusion's constant: a hit at rank r adds 1 / (K + r). */
    static final int RRF_K = 60;

    /** The least cosine a memory must have with the query to count as alike in meaning. */
    public static final double SIMILARITY_FLOOR = 0.35;

    private static final int DEFAULT_LIMIT = 5;
    private static final int MAX_LIMIT = 50;
    private static final int CANDIDATES = 50;
    private static final int EMBED_BATCH = 64;

    private final Memories memories;
    private final Supplier<Embedder> embedder;

    /** The operations over {@code data}'s memories, with vectors from {@code embedder} (asked for on first use). */
    public MemoryOperations(MemoData data, Supplier<Embedder> embedder) {
        this.memories = data.memories();
        this.embedder = embedder;
    }

    /**
     * Performs {@code args.operation} for {@code context}'s user.
     *
     * @throws NotFoundException ({@code E_NOT_FOUND}) for a memory id the user does not have
     * @throws WeftException {@code E_ARGS_INVALID} for arguments the operation cannot use
     */
    public ObjectNode apply(ObjectNode args, OperationContext context) {
        String operation = args.path("operation").asText("");
        String user = context.user();
        return switch (operation) {
            case "store" -> store(args, context);
            case "search" -> search(user, required(args, "query"), limit(args), filters(args));
            case "getContext" -> context(args, user);
            case "summarize" -> summarize(args, user);
            case "update" -> update(args, context);
            case "delete" ->
                memories.db().write("delete a memory", c -> {
                    Memory old = require(c, user, required(args, "memoryId"));
                    memories.delete(c, user, old.id());
                    ObjectNode out = Json.object();
                    out.putArray("deleted").add(old.toJson());
                    return out;
                });
            case "restore" ->
                memories.db().write("restore memories", c -> {
                    ArrayNode restored = Json.mapper().createArrayNode();
                    for (JsonNode json : args.path("memories")) {
                        Memory memory = Memory.fromJson(json);
                        if (Memories.find(c, user, memory.id()).isPresent()) {
                            memories.update(c, user, memory, Optional.empty());
                        } else {
                            memories.insert(c, user, memory, Optional.empty());
                        }
                        restored.add(memory.toJson());
                    }
                    ObjectNode out = Json.object();
                    out.set("memories", restored);
                    return out;
                });
            default ->
                throw TaskOperations.invalid(
                        "unknown memoryOperations operation '" + operation + "'; one of " + OPERATIONS);
        };
    }

    private ObjectNode store(ObjectNode args, OperationContext context) {
        String content = required(args, "content");
        Memory memory = new Memory(
                context.newId("m-", 0), content, tags(args), optional(args, "projectId"), context.now(), context.now());
        Optional<Memories.Vector> vector = vector(memory.searchable());
        ObjectNode out = Json.object();
        out.set(
                "memory",
                memories.db()
                        .write("store a memory", c -> memories.insert(c, context.user(), memory, vector))
                        .toJson());
        return out;
    }

    private ObjectNode update(ObjectNode args, OperationContext context) {
        String user = context.user();
        String id = required(args, "memoryId");
        Memory old = memories.db().read("read a memory", c -> require(c, user, id));
        Memory changed = new Memory(
                old.id(),
                optional(args, "content").orElse(old.content()),
                args.has("tags") ? tags(args) : old.tags(),
                optional(args, "projectId").or(old::project),
                old.createdAt(),
                context.now());
        Optional<Memories.Vector> vector = vector(changed.searchable());
        return memories.db().write("update a memory", c -> {
            Memory before = require(c, user, id);
            memories.update(c, user, changed, vector);
            ObjectNode out = Json.object();
            out.set("memory", changed.toJson());
            out.putArray("previous").add(before.toJson());
            return out;
        });
    }

    /** A search's filters: the tags a memory must have one of, and its project. */
    private record Filters(Set<String> tags, Optional<String> project) {
        boolean keep(Memory memory) {
            boolean tagged =
                    tags.isEmpty() || memory.tags().stream().anyMatch(t -> tags.contains(t.toLowerCase(Locale.ROOT)));
            boolean inProject = project.isEmpty()
                    || memory.project()
                            .map(p -> p.equalsIgnoreCase(project.get()))
                            .orElse(false);
            return tagged && inProject;
        }
    }

    private static Filters filters(JsonNode args) {
        Set<String> tags = new LinkedHashSet<>();
        args.path("tags").forEach(t -> tags.add(t.asText().toLowerCase(Locale.ROOT)));
        return new Filters(tags, optional(args, "projectId"));
    }

    /**
     * The user's memories that match {@code query} best, fused from the full-text and the vector
     * rankings: {@code {"memories": [{…memory, "score", "match": {"words", "wordRank", "similarity",
     * "meaningRank"}, "why"}], "semantic": "…"}}.
     */
    private ObjectNode search(String user, String query, int limit, Filters filters) {
        List<String> terms = SearchTerms.queryTerms(query);
        List<Memories.Ranked> byWords = memories.lexical(user, terms, CANDIDATES);
        List<Memories.Ranked> byMeaning = List.of();
        String semantic;
        try {
            Embedder model = embedder.get();
            embedMissing(user, model);
            float[] vector = model.embed(query);
            byMeaning = memories.nearest(user, new Memories.Vector(model.name(), vector), CANDIDATES, SIMILARITY_FLOOR);
            semantic = model.name();
        } catch (WeftException e) {
            // The embedding model is unreachable: the words alone still find memories.
            semantic = "unavailable: " + e.code() + ": " + e.getMessage();
        }
        Map<String, ObjectNode> matches = new LinkedHashMap<>();
        Map<String, Double> scores = new HashMap<>();
        for (int i = 0; i < byWords.size(); i++) {
            String id = byWords.get(i).id();
            scores.merge(id, 1.0 / (RRF_K + i + 1), Double::sum);
            matches.computeIfAbsent(id, k -> Json.object()).put("wordRank", i + 1);
        }
        for (int i = 0; i < byMeaning.size(); i++) {
            Memories.Ranked hit = byMeaning.get(i);
            scores.merge(hit.id(), 1.0 / (RRF_K + i + 1), Double::sum);
            ObjectNode match = matches.computeIfAbsent(hit.id(), k -> Json.object());
            match.put("meaningRank", i + 1);
            match.put("similarity", Math.round(hit.score() * 1000) / 1000.0);
        }
        List<String> ranked = new ArrayList<>(scores.keySet());
        ranked.sort(Comparator.comparingDouble((String id) -> -scores.get(id)).thenComparing(id -> id));
        List<Memory> found = memories.db().read("read memories", c -> memories.byIds(c, user, ranked));
        ArrayNode hits = Json.mapper().createArrayNode();
        for (Memory memory : found) {
            if (hits.size() >= limit) {
                break;
            }
            if (!filters.keep(memory)) {
                continue;
            }
            ObjectNode hit = memory.toJson();
            ObjectNode match = matches.get(memory.id());
            List<String> words = sharedWords(query, memory);
            if (match.has("wordRank")) {
                words.forEach(match.putArray("words")::add);
            }
            hit.put("score", Math.round(scores.get(memory.id()) * 100000) / 100000.0);
            hit.set("match", match);
            hit.put("why", why(match, words));
            hits.add(hit);
        }
        ObjectNode out = Json.object();
        out.put("query", query);
        out.set("memories", hits);
        out.put("semantic", semantic);
        return out;
    }

    private static String why(ObjectNode match, List<String> words) {
        List<String> reasons = new ArrayList<>();
        if (match.has("wordRank")) {
            reasons.add(words.isEmpty() ? "shares words" : "shares the words " + String.join(", ", words));
        }
        if (match.has("similarity")) {
            reasons.add("close in meaning (" + match.get("similarity").asDouble() + ")");
        }
        return String.join("; ", reasons);
    }

    /** The words of {@code query} that {@code memory} holds in some form. */
    private static List<String> sharedWords(String query, Memory memory) {
        Set<String> held = new LinkedHashSet<>();
        for (String word : SearchTerms.words(memory.searchable())) {
            held.addAll(SearchTerms.forms(word));
        }
        List<String> shared = new ArrayList<>();
        for (String word : SearchTerms.words(query)) {
            for (String form : SearchTerms.forms(word)) {
                if (held.contains(form) || held.stream().anyMatch(h -> sameStem(h, form))) {
                    shared.add(word);
                    break;
                }
            }
        }
        return shared;
    }

    /** English words the database's stemmer takes as one ("ideas" and "idea"): a shared stem of four letters or more. */
    private static boolean sameStem(String a, String b) {
        int common = 0;
        while (common < a.length() && common < b.length() && a.charAt(common) == b.charAt(common)) {
            common++;
        }
        return common >= 4 && Math.max(a.length(), b.length()) - common <= 3;
    }

    /** Gives every memory of {@code user} that has none a vector of {@code model}'s. */
    private void embedMissing(String user, Embedder model) {
        for (List<Memories.Unembedded> batch = memories.unembedded(user, model.name(), EMBED_BATCH);
                !batch.isEmpty();
                batch = memories.unembedded(user, model.name(), EMBED_BATCH)) {
            List<float[]> vectors =
                    model.embedAll(batch.stream().map(Memories.Unembedded::text).toList());
            for (int i = 0; i < batch.size(); i++) {
                memories.embedded(
                        user,
                        batch.get(i).id(),
                        batch.get(i).text(),
                        new Memories.Vector(model.name(), vectors.get(i)));
            }
            if (batch.size() < EMBED_BATCH) {
                return;
            }
        }
    }

    private Optional<Memories.Vector> vector(String text) {
        try {
            Embedder model = embedder.get();
            return Optional.of(new Memories.Vector(model.name(), model.embed(text)));
        } catch (WeftException e) {
            // Kept without a vector: found by its words now, by its meaning once the model answers.
            return Optional.empty();
        }
    }

    /**
     * What a model (or a reply) needs to speak of the user's memories: those that match {@code query}
     * when there is one, and the latest ones.
     */
    private ObjectNode context(ObjectNode args, String user) {
        int limit = limit(args);
        ObjectNode out = Json.object();
        Optional<String> query = optional(args, "query");
        if (query.isPresent()) {
            out.set("relevant", search(user, query.get(), limit, filters(args)).get("memories"));
        }
        List<Memory> all = memories.all(user);
        ArrayNode latest = out.putArray("latest");
        for (int i = all.size() - 1; i >= 0 && latest.size() < limit; i--) {
            latest.add(all.get(i).toJson());
        }
        out.put("count", all.size());
        return out;
    }

    /**
     * The memories of a project, a tag or a query (all of them, latest first, when none is given) and an
     * extractive summary of them: the sentences whose words the memories share most, in time order.
     */
    private ObjectNode summarize(ObjectNode args, String user) {
        Optional<String> project = optional(args, "projectId");
        Optional<String> query = optional(args, "query");
        Filters filters = filters(args);
        List<Memory> chosen;
        if (query.isPresent() && project.isEmpty()) {
            chosen = matching(user, query.get(), filters);
        } else {
            chosen = new ArrayList<>(
                    memories.all(user).stream().filter(filters::keep).toList());
            if (project.isPresent() && chosen.isEmpty()) {
                // A project named in words rather than set on the memories: the memories that speak of it.
                chosen = matching(user, project.get(), new Filters(filters.tags(), Optional.empty()));
            }
        }
        chosen.sort(Comparator.comparing(Memory::createdAt));
        ObjectNode out = Json.object();
        project.ifPresent(p -> out.put("projectId", p));
        query.ifPresent(q -> out.put("query", q));
        out.put("count", chosen.size());
        ArrayNode list = out.putArray("memories");
        chosen.forEach(m -> list.add(m.toJson()));
        out.put("summary", ExtractiveSummary.of(chosen, 3));
        return out;
    }

    /** The memories a search for {@code words} finds, best first (at most 20). */
    private List<Memory> matching(String user, String words, Filters filters) {
        List<Memory> found = new ArrayList<>();
        search(user, words, 20, filters).get("memories").forEach(hit -> found.add(Memory.fromJson(hit)));
        return found;
    }

    private static Memory require(Connection c, String user, String id) throws SQLException {
        return Memories.find(c, user, id)
                .orElseThrow(() -> new NotFoundException("no memory '" + id + "' of user '" + user + "'"));
    }

    private static List<String> tags(JsonNode args) {
        List<String> tags = new ArrayList<>();
        args.path("tags").forEach(t -> {
            String tag = t.asText().strip();
            if (!tag.isEmpty() && !tags.contains(tag)) {
                tags.add(tag);
            }
        });
        return tags;
    }

    private static int limit(JsonNode args) {
        if (!args.has("limit")) {
            return DEFAULT_LIMIT;
        }
        int limit = args.get("limit").asInt();
        if (limit < 1 || limit > MAX_LIMIT) {
            throw TaskOperations.invalid("limit must be from 1 to " + MAX_LIMIT + ", was " + args.get("limit"));
        }
        return limit;
    }

    private static String required(JsonNode args, String field) {
        return optional(args, field)
                .orElseThrow(() -> TaskOperations.invalid(
                        "memoryOperations " + args.path("operation").asText() + " needs '" + field + "'"));
    }

    private static Optional<String> optional(JsonNode args, String field) {
        JsonNode value = args.path(field);
        return value.isTextual() && !value.asText().isBlank()
                ? Optional.of(value.asText().strip())
                : Optional.empty();
    }
}
