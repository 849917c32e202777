package dev.weft.memo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.weft.core.Json;
import dev.weft.llm.Model;
import dev.weft.llm.ModelTransientException;
import dev.weft.llm.ModelUnavailableException;
import dev.weft.llm.Prompt;
import dev.weft.llm.StepModels;
import dev.weft.memo.internal.MemoResolvers;
import dev.weft.memo.internal.SecondBrainResolver;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import dev.weft.plan.ResolverRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Memo's resolvers on the model path (seed 002): each of DatabaseTask, DatabaseList, CalendarFind and
 * CalendarMutate has a fixed system prompt — its rules and its tool's input schema (the schema slice),
 * the same bytes for every step — and turns the steps that need no lookup (creating, listing, bulk
 * changes over a window) into its tool's arguments through structured output, with one repair. Steps
 * that name a task, list or event by its words keep the offline lookup (never an id from the model),
 * with its numbered question when several match; General answers in words with the model; Meta stays
 * templates. When the model cannot be reached, a step is resolved offline and says so in its facts.
 */
final class ModelResolvers {
    private ModelResolvers() {}

    private record Slice(String tool, Set<String> actions) {}

    private static final Map<String, Slice> SLICES = Map.of(
            "DatabaseTaskResolver",
                    new Slice(
                            MemoTools.TASKS,
                            Set.of("create_task", "create_tasks", "find_task", "delete_tasks", "complete_tasks")),
            "DatabaseListResolver", new Slice(MemoTools.LISTS, Set.of("create_list")),
            "CalendarFindResolver", new Slice(MemoTools.CALENDAR, Set.of("list_events", "check_conflicts")),
            "CalendarMutateResolver",
                    new Slice(MemoTools.CALENDAR, Set.of("create_event", "create_recurring", "delete_events")));

    /** Memo's resolvers of {@code offline}, each on {@code model} where it has a model path. */
    static ResolverRegistry registry(MemoResolvers offline, Model model) {
        List<Resolver> resolvers = offline.resolvers().stream()
                .map(r -> {
                    Slice slice = SLICES.get(r.name());
                    if (slice != null) {
                        return (Resolver) new WithArgs(r, slice, systemPrompt(r.name(), slice.tool()), model);
                    }
                    if (r.capability().equals("general")) {
                        return new General(r, resource("resolvers/GeneralResolver.txt"), model);
                    }
                    if (r.capability().equals("second-brain")) {
                        return new SecondBrain(r, resource("resolvers/SecondBrainAnswer.txt"), model);
                    }
                    return r;
                })
                .toList();
        return ResolverRegistry.of(resolvers.toArray(Resolver[]::new));
    }

    /** A resolver's fixed prompt: its rules, then its tool's input schema. */
    static String systemPrompt(String resolver, String tool) {
        return resource("resolvers/" + resolver + ".txt")
                + Json.mapper()
                        .valueToTree(MemoTools.schema(tool + ".input.json"))
                        .toPrettyString() + "\n";
    }

    private static ObjectNode request(PlanStep step, ResolveContext context) {
        ObjectNode request = Json.object();
        request.put("action", step.action());
        request.set("constraints", step.constraints());
        request.set("changes", step.changes());
        request.put("language", context.input().path("language").asText("en"));
        request.put("now", context.input().path("now").asText(""));
        request.put("zone", context.input().path("zone").asText(""));
        return request;
    }

    private static void resolvedOffline(ResolveContext context, RuntimeException e) {
        context.record("resolvedOffline", TextNode.valueOf(e.getMessage()));
    }

    /** A model path over an offline resolver: the same name, capability, actions and tools as it has. */
    private interface OverOffline extends Resolver {
        Resolver offline();

        @Override
        default String name() {
            return offline().name();
        }

        @Override
        default String capability() {
            return offline().capability();
        }

        @Override
        default Set<String> actions() {
            return offline().actions();
        }

        @Override
        default Optional<String> tool(PlanStep step) {
            return offline().tool(step);
        }
    }

    /** Arguments from the model for the steps of its slice; lookups and the rest offline. */
    private record WithArgs(Resolver offline, Slice slice, String system, Model model) implements OverOffline {
        @Override
        public Resolution resolve(PlanStep step, ResolveContext context) {
            boolean missingText = step.action().equals("create_task")
                    && step.constraints().path("text").asText("").isBlank();
            if (!slice.actions().contains(step.action()) || missingText) {
                return offline.resolve(step, context);
            }
            JsonNode schema = MemoTools.schema(slice.tool() + ".input.json");
            try {
                JsonNode args = StepModels.structured(
                        context,
                        model,
                        new Prompt(system, request(step, context).toString()),
                        schema);
                return Resolution.execute(slice.tool(), (ObjectNode) args);
            } catch (ModelUnavailableException | ModelTransientException e) {
                resolvedOffline(context, e);
                return offline.resolve(step, context);
            }
        }
    }

    /** A short answer in words from the model; the offline one when it cannot be reached. */
    private record General(Resolver offline, String system, Model model) implements OverOffline {
        @Override
        public Resolution resolve(PlanStep step, ResolveContext context) {
            try {
                String text = StepModels.text(
                        context,
                        model,
                        new Prompt(system, step.constraints().path("message").asText("")));
                ObjectNode args = Json.object();
                args.put("text", text.strip());
                return Resolution.execute(MemoResolvers.RESPOND, args);
            } catch (ModelUnavailableException | ModelTransientException e) {
                resolvedOffline(context, e);
                return offline.resolve(step, context);
            }
        }
    }

    /**
     * The second brain with the model answering the user's question from the memories its step found
     * (citing them as [n]); storing, searching, changing and forgetting stay offline, and so does the
     * answer when nothing was found.
     */
    private record SecondBrain(Resolver offline, String system, Model model) implements OverOffline {
        @Override
        public Resolution resolve(PlanStep step, ResolveContext context) {
            JsonNode found = SecondBrainResolver.found(context);
            if (!step.action().equals(SecondBrainResolver.ANSWER)
                    || (found.path("memories").isEmpty() && found.path("latest").isEmpty())) {
                return offline.resolve(step, context);
            }
            StringBuilder user = new StringBuilder("Question: ")
                    .append(step.constraints()
                            .path("question")
                            .asText(context.input().path("message").asText("")))
                    .append("\n\nMemories:\n");
            int n = 1;
            for (JsonNode memory : found.has("latest") ? found.get("latest") : found.get("memories")) {
                user.append('[')
                        .append(n++)
                        .append("] (")
                        .append(memory.path("createdAt").asText().replaceFirst("T.*", ""))
                        .append(") ")
                        .append(memory.path("content").asText())
                        .append('\n');
            }
            try {
                String text = StepModels.text(context, model, new Prompt(system, user.toString()));
                ObjectNode args = Json.object();
                args.put("text", text.strip());
                return Resolution.execute(MemoResolvers.RESPOND, args);
            } catch (ModelUnavailableException | ModelTransientException e) {
                resolvedOffline(context, e);
                return offline.resolve(step, context);
            }
        }
    }

    private static String resource(String name) {
        try (InputStream in = ModelResolvers.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
