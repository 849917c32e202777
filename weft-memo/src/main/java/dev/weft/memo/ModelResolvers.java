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
import dev.weft.plan.StepSlice;
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
 * CalendarMutate has a fixed system prompt per action — its rules and the slice of its tool's input
 * schema that action may use, the same bytes for every such step — and turns the steps that need no lookup (creating, listing, bulk
 * changes over a window) into its tool's arguments through structured output, with one repair. Steps
 * that name a task, list or event by its words keep the offline lookup (never an id from the model),
 * with its numbered question when several match; General answers in words with the model; Meta stays
 * templates. When the model cannot be reached, a step is resolved offline and says so in its facts.
 */
final class ModelResolvers {
    private ModelResolvers() {}

    /**
     * The steps each resolver hands its model, by action, and what a call for each may be: only that
     * operation of its tool, never an id the model wrote itself (targets are found offline, by the
     * user's words). The model is shown this slice of the schema, and the step pipeline refuses any
     * call outside it ({@code E_STEP_MISMATCH}), so text the model reads cannot steer it elsewhere.
     */
    private static final Map<String, Map<String, StepSlice>> SLICES = Map.of(
            "DatabaseTaskResolver",
                    Map.of(
                            "create_task", tasks("create"),
                            "create_tasks", tasks("createMultiple"),
                            "find_task", tasks("getAll"),
                            "delete_tasks", tasks("deleteAll"),
                            "complete_tasks", tasks("completeAll")),
            "DatabaseListResolver",
                    Map.of(
                            "create_list",
                            StepSlice.of(MemoTools.LISTS, "create").locking("listId", "listIds")),
            "CalendarFindResolver",
                    Map.of("list_events", calendar("getEvents"), "check_conflicts", calendar("checkConflicts")),
            "CalendarMutateResolver",
                    Map.of(
                            "create_event", calendar("create"),
                            "create_recurring", calendar("createRecurring"),
                            "delete_events", calendar("delete")));

    private static StepSlice tasks(String operation) {
        return StepSlice.of(MemoTools.TASKS, operation).locking("taskId", "taskIds");
    }

    private static StepSlice calendar(String operation) {
        return StepSlice.of(MemoTools.CALENDAR, operation).locking("eventId", "eventIds");
    }

    /** Memo's resolvers of {@code offline}, each on {@code model} where it has a model path. */
    static ResolverRegistry registry(MemoResolvers offline, Model model) {
        List<Resolver> resolvers = offline.resolvers().stream()
                .map(r -> {
                    Map<String, StepSlice> slices = SLICES.get(r.name());
                    if (slices != null) {
                        Map<String, String> prompts = new java.util.HashMap<>();
                        slices.keySet().forEach(action -> prompts.put(action, systemPrompt(r.name(), action)));
                        return (Resolver) new WithArgs(r, slices, Map.copyOf(prompts), model);
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

    /**
     * A resolver's fixed prompt for the steps of one action: its rules, then the slice of its tool's
     * input schema that action may use (the same bytes for every such step, so a provider's prompt
     * cache still hits).
     */
    static String systemPrompt(String resolver, String action) {
        StepSlice slice = SLICES.get(resolver).get(action);
        return resource("resolvers/" + resolver + ".txt") + inputSchema(slice).toPrettyString() + "\n";
    }

    /** The schema a model is shown, and its answer held to, for a step of {@code slice}. */
    private static ObjectNode inputSchema(StepSlice slice) {
        return slice.slice((ObjectNode) Json.mapper().valueToTree(MemoTools.schema(slice.tool() + ".input.json")));
    }

    private static ObjectNode request(PlanStep step, ResolveContext context) {
        ObjectNode request = Json.object();
        request.put("action", step.action());
        request.set("constraints", step.constraints());
        request.set("changes", step.changes());
        request.put("language", context.input().path("language").asText("en"));
        request.put("now", context.input().path("now").asText(""));
        request.put("zone", context.input().path("zone").asText(""));
        if (!context.dependencyResults().isEmpty()) {
            // What the steps before it found (an email's text, the events of a day): data to use, never
            // instructions; whatever it says, the call is held to this step's slice.
            ObjectNode found = request.putObject("found");
            context.dependencyResults().forEach(found::set);
        }
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

    /** Arguments from the model for the steps of its slices; lookups and the rest offline. */
    private record WithArgs(Resolver offline, Map<String, StepSlice> slices, Map<String, String> prompts, Model model)
            implements OverOffline {
        @Override
        public Optional<StepSlice> slice(PlanStep step) {
            return Optional.ofNullable(slices.get(step.action()));
        }

        @Override
        public Resolution resolve(PlanStep step, ResolveContext context) {
            boolean missingText = step.action().equals("create_task")
                    && step.constraints().path("text").asText("").isBlank();
            StepSlice slice = slices.get(step.action());
            if (slice == null || missingText) {
                return offline.resolve(step, context);
            }
            try {
                JsonNode args = StepModels.structured(
                        context,
                        model,
                        new Prompt(
                                prompts.get(step.action()),
                                request(step, context).toString()),
                        // The answer is read against the whole tool's schema, not the slice: an answer
                        // outside the slice is a steered model, refused by the step pipeline for what
                        // it is (E_STEP_MISMATCH, recorded), not repaired by asking that model again.
                        MemoTools.schema(slice.tool() + ".input.json"));
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
