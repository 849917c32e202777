package dev.weft.memo.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.language.EntityMatch;
import dev.weft.memo.MemoTools;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.Memory;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Seed 002's SecondBrainResolver, offline: thoughts to keep, memories to find, change, forget or
 * summarize become {@code memoryOperations} calls; a memory to change or forget is looked up by the
 * user's words among their own (several → a numbered question); and {@code answer_from_memory}
 * answers the user's question from what the step before it found, citing each memory with its day.
 * Thread-safe.
 */
public final class SecondBrainResolver implements Resolver {
    /** The action that answers from the memories the step it depends on found. */
    public static final String ANSWER = "answer_from_memory";

    private static final Pattern HASHTAG = Pattern.compile("#([\\p{L}\\p{N}_-]+)");

    private final MemoData data;
    private final MemoResolvers resolvers;

    SecondBrainResolver(MemoData data, MemoResolvers resolvers) {
        this.data = data;
        this.resolvers = resolvers;
    }

    @Override
    public String name() {
        return "SecondBrainResolver";
    }

    @Override
    public String capability() {
        return "second-brain";
    }

    @Override
    public Set<String> actions() {
        return Set.of("store_thought", "search_memory", "update_memory", "delete_memory", "summarize_project", ANSWER);
    }

    @Override
    public Optional<String> tool(PlanStep step) {
        return Optional.of(step.action().equals(ANSWER) ? MemoResolvers.RESPOND : MemoTools.MEMORY);
    }

    @Override
    public Resolution resolve(PlanStep step, ResolveContext context) {
        JsonNode c = step.constraints();
        String language = MemoResolvers.language(context);
        switch (step.action()) {
            case "store_thought" -> {
                String content = c.path("content").asText("").strip();
                if (content.isEmpty()) {
                    if (MemoResolvers.reply(context).isEmpty()) {
                        return Resolution.clarify(Texts.of(language, "What should I remember?", "מה לזכור?"));
                    }
                    content = MemoResolvers.reply(context).get().strip();
                }
                ObjectNode args = MemoResolvers.args("store");
                args.put("content", content);
                ArrayNode tags = args.putArray("tags");
                tags(content, c.path("tags")).forEach(tags::add);
                if (tags.isEmpty()) {
                    args.remove("tags");
                }
                MemoResolvers.copy(c, args, "projectId");
                return Resolution.execute(MemoTools.MEMORY, args);
            }
            case "search_memory" -> {
                String query = c.path("query").asText("").strip();
                if (query.isEmpty()) {
                    // Nothing named to look for: what the user said last.
                    ObjectNode args = MemoResolvers.args("getContext");
                    MemoResolvers.copy(c, args, "limit");
                    return Resolution.execute(MemoTools.MEMORY, args);
                }
                ObjectNode args = MemoResolvers.args("search");
                args.put("query", query);
                MemoResolvers.copy(c, args, "limit", "tags", "projectId");
                return Resolution.execute(MemoTools.MEMORY, args);
            }
            case "summarize_project" -> {
                ObjectNode args = MemoResolvers.args("summarize");
                String project =
                        c.path("projectId").asText(c.path("query").asText("")).strip();
                if (!project.isEmpty()) {
                    args.put("projectId", project);
                }
                MemoResolvers.copy(c, args, "tags");
                return Resolution.execute(MemoTools.MEMORY, args);
            }
            case ANSWER -> {
                java.time.ZoneId zone = resolvers.zone(context);
                ObjectNode args = Json.object();
                args.put(
                        "text",
                        MemoryReplies.answer(
                                language,
                                found(context),
                                MemoResolvers.now(context, zone).toInstant(),
                                zone));
                return Resolution.execute(MemoResolvers.RESPOND, args);
            }
            default -> {
                return withMemory(step, context, c, language);
            }
        }
    }

    /** update_memory and delete_memory: the user's memory their words name, or a question. */
    private Resolution withMemory(PlanStep step, ResolveContext context, JsonNode c, String language) {
        String query = c.path("query").asText("").strip();
        List<Memory> memories = data.memories().all(context.user().orElseThrow());
        List<Memory> found = EntityMatch.best(query, memories, Memory::content);
        String content = c.path("content").asText("").strip();
        if (found.isEmpty() && step.action().equals("update_memory") && !content.isEmpty()) {
            // A correction of something never kept ("actually my locker code is 5678 now") is kept as said.
            ObjectNode args = MemoResolvers.args("store");
            args.put("content", content);
            return Resolution.execute(MemoTools.MEMORY, args);
        }
        Object picked = MemoResolvers.pick(
                found,
                context,
                Texts.of(language, "a memory about \"" + query + "\"", "משהו ששמרתי על \"" + query + "\""),
                Memory::content);
        if (picked instanceof Resolution question) {
            return question;
        }
        Memory memory = (Memory) picked;
        ObjectNode args = MemoResolvers.args(step.action().equals("delete_memory") ? "delete" : "update");
        args.put("memoryId", memory.id());
        if (step.action().equals("update_memory")) {
            MemoResolvers.copy(c, args, "content", "tags", "projectId");
        }
        return Resolution.execute(MemoTools.MEMORY, args);
    }

    /** The result the answer is made from: the search or summary of the step this one depends on. */
    public static JsonNode found(ResolveContext context) {
        for (JsonNode result : context.dependencyResults().values()) {
            if (result.has("memories") || result.has("latest")) {
                return result;
            }
        }
        return Json.object();
    }

    /** The tags the step names, and the #hashtags the user wrote. */
    private static Set<String> tags(String content, JsonNode named) {
        Set<String> tags = new LinkedHashSet<>();
        named.forEach(t -> tags.add(t.asText()));
        Matcher m = HASHTAG.matcher(content);
        while (m.find()) {
            tags.add(m.group(1));
        }
        return tags;
    }
}
