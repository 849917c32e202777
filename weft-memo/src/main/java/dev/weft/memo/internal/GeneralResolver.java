package dev.weft.memo.internal;

import static dev.weft.memo.internal.MemoResolvers.args;
import static dev.weft.memo.internal.MemoResolvers.language;
import static dev.weft.memo.internal.MemoResolvers.now;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import java.util.Optional;
import java.util.Set;

/**
 * Seed 002's GeneralResolver, offline: a short, honest answer in the user's language, saying what
 * Memo cannot do when it was asked for something else. Thread-safe.
 */
final class GeneralResolver implements Resolver {
    private final MemoResolvers resolvers;

    GeneralResolver(MemoResolvers resolvers) {
        this.resolvers = resolvers;
    }

    @Override
    public String name() {
        return "GeneralResolver";
    }

    @Override
    public String capability() {
        return "general";
    }

    @Override
    public Set<String> actions() {
        return Set.of("respond");
    }

    @Override
    public Optional<String> tool(PlanStep step) {
        return Optional.of(MemoResolvers.RESPOND);
    }

    @Override
    public Resolution resolve(PlanStep step, ResolveContext context) {
        ObjectNode args = Json.object();
        String topic = step.constraints().path("outOfScope").asText("");
        String language = language(context);
        // A bare "no", "stop" or "never mind" is an acknowledgement whatever the classifier made of it
        // (a music request, a change said not to be made): nothing was asked, so nothing is explained.
        Optional<String> acknowledged =
                Replies.acknowledgement(step.constraints().path("message").asText(""), language);
        if (acknowledged.isPresent()) {
            args.put("text", acknowledged.get());
        } else if (topic.equals("clock")) {
            args.put("text", Replies.clock(now(context, resolvers.zone(context)), language));
        } else if (step.constraints().hasNonNull("notACommand")) {
            args.put(
                    "text",
                    Replies.notACommand(step.constraints().get("notACommand").asText(), language));
        } else if (!topic.isEmpty()) {
            args.put("text", Replies.outOfScope(topic, language));
        } else {
            args.put(
                    "text",
                    Replies.conversation(step.constraints().path("message").asText(""), language));
        }
        return Resolution.execute(MemoResolvers.RESPOND, args);
    }
}
