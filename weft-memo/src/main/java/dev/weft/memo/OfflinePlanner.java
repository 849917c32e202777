package dev.weft.memo;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.memo.internal.SecondBrainResolver;
import dev.weft.memo.internal.planning.FollowUps;
import dev.weft.memo.internal.planning.Parts;
import dev.weft.memo.internal.planning.Readers;
import dev.weft.memo.internal.planning.Reading;
import dev.weft.memo.internal.planning.Request;
import dev.weft.memo.internal.planning.TimeFirst;
import dev.weft.memo.internal.understanding.Intent;
import dev.weft.memo.internal.understanding.Utterances;
import dev.weft.plan.Plan;
import dev.weft.plan.PlanStep;
import dev.weft.time.Language;
import dev.weft.time.TimeParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The planner that needs no model. A message splits into requests ({@link Parts}); each request's
 * intent — a capability and what to do with it, small talk, help, undo, or something Memo does not
 * do — comes from an intent classifier trained on generated English and Hebrew sentences, and its
 * slots from the reader of its capability, over its words and {@code weft-time}'s time expressions
 * ({@link Readers}). The plan's confidence is the classifier's, for the request it is least sure of.
 * Thread-safe.
 */
public final class OfflinePlanner implements Planner {
    private final TimeParser time;

    public OfflinePlanner() {
        this(TimeParser.create());
    }

    public OfflinePlanner(TimeParser time) {
        this.time = time;
    }

    @Override
    public Plan plan(String message, Context context) {
        Optional<Plan> followUp = followUp(message, context);
        if (followUp.isPresent()) {
            return followUp.get();
        }
        String text = message.strip();
        List<Parts.Part> parts = Parts.split(text, context.language());
        List<PlanStep> steps = new ArrayList<>();
        ArrayNode understood = context.facts().putArray("understood");
        double confidence = 1;
        boolean operation = false;
        for (int i = 0; i < parts.size(); i++) {
            String id = stepId(i);
            List<String> dependsOn = parts.get(i).dependsOnPrevious()
                    ? List.of(steps.get(steps.size() - 1).id())
                    : List.of();
            Request request = request(parts.get(i).text(), context);
            Readers.Understood intent = Readers.understand(request);
            Reading reading = Readers.read(intent.intent(), request);
            PlanStep step = new PlanStep(
                    id, reading.capability(), reading.action(), reading.constraints(), reading.changes(), dependsOn);
            if (!dependsOn.isEmpty()) {
                step = Parts.referring(step, parts.get(i).text(), steps.get(steps.size() - 1), context.language());
            }
            ObjectNode fact = understood.addObject();
            fact.put("step", id);
            fact.put("intent", intent.intent().label());
            fact.put("confidence", Math.round(intent.confidence() * 1000) / 1000.0);
            confidence = Math.min(confidence, intent.confidence());
            operation |=
                    !step.capability().equals("general") && !step.capability().equals("meta");
            steps.add(step);
        }
        if (steps.isEmpty()) {
            steps.add(new PlanStep(
                    "A", "general", "respond", Json.object().put("message", text), Json.object(), List.of()));
        }
        answersFromMemory(steps, parts);
        String intent = operation
                ? (steps.size() > 1 ? "multi_task" : "operation")
                : steps.get(0).capability().equals("meta") ? "meta" : "conversation";
        return new Plan(intent, Math.round(confidence * 1000) / 1000.0, steps);
    }

    /**
     * The plan of a follow-up about what the user's last request made, changed or found ("move it to
     * 10", "תמחק את זה"), when the context has such a thing and the message is one; empty otherwise, and
     * for "undo", which undoes rather than edits.
     */
    public Optional<Plan> followUp(String message, Context context) {
        if (context.referent().isEmpty()) {
            return Optional.empty();
        }
        String text = message.strip();
        if (Parts.split(text, context.language()).size() != 1) {
            return Optional.empty();
        }
        Request request = request(text, context);
        Readers.Understood intent = Readers.understand(request);
        if (intent.intent() == Intent.UNDO) {
            return Optional.empty();
        }
        return FollowUps.read(request, context.referent().get()).map(reading -> {
            ObjectNode fact = context.facts().putArray("understood").addObject();
            fact.put("step", "A");
            fact.put("intent", "followup");
            fact.put(
                    "about",
                    context.referent().get().kind() + ":"
                            + context.referent().get().id());
            return new Plan(
                    "operation",
                    0.9,
                    List.of(new PlanStep(
                            "A",
                            reading.capability(),
                            reading.action(),
                            reading.constraints(),
                            reading.changes(),
                            List.of())));
        });
    }

    private Request request(String part, Context context) {
        String said = Utterances.withoutLead(part);
        // "how about on Wednesday at 5pm call mom": the suggestion's words are not the errand's.
        Optional<Request> suggested = TimeFirst.withoutSuggestion(said)
                .map(bare -> read(bare, context))
                .filter(TimeFirst::saidTimeFirst);
        return suggested.orElseGet(() -> read(said, context));
    }

    private Request read(String said, Context context) {
        Language language = context.language().equals("he") ? Language.HEBREW : Language.ENGLISH;
        return Request.of(
                said, context.language(), context.now(), Utterances.times(time, said, context.now(), language));
    }

    private static String stepId(int i) {
        return String.valueOf((char) ('A' + Math.min(i, 25))) + (i >= 26 ? String.valueOf(i) : "");
    }

    /**
     * After each step that finds or summarizes memories, a step that answers the user from what it
     * found ({@code answer_from_memory}, with the part's words as the question), at the end of the plan
     * so that the other steps keep their ids.
     */
    private static void answersFromMemory(List<PlanStep> steps, List<Parts.Part> parts) {
        List<PlanStep> answers = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            PlanStep step = steps.get(i);
            if (step.capability().equals("second-brain")
                    && (step.action().equals("search_memory") || step.action().equals("summarize_project"))) {
                ObjectNode c = Json.object();
                c.put("question", i < parts.size() ? parts.get(i).text() : "");
                answers.add(new PlanStep(
                        stepId(steps.size() + answers.size()),
                        "second-brain",
                        SecondBrainResolver.ANSWER,
                        c,
                        Json.object(),
                        List.of(step.id())));
            }
        }
        steps.addAll(answers);
    }
}
