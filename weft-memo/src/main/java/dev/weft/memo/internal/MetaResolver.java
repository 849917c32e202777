package dev.weft.memo.internal;

import static dev.weft.memo.internal.MemoResolvers.args;
import static dev.weft.memo.internal.MemoResolvers.language;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import java.util.Optional;
import java.util.Set;

/** Seed 002's MetaResolver: what Memo can do and how, from templates, no model. Thread-safe. */
final class MetaResolver implements Resolver {
    @Override
    public String name() {
        return "MetaResolver";
    }

    @Override
    public String capability() {
        return "meta";
    }

    @Override
    public Set<String> actions() {
        return Set.of("help", "describe_capabilities", "undo");
    }

    @Override
    public Optional<String> tool(PlanStep step) {
        return Optional.of(MemoResolvers.RESPOND);
    }

    @Override
    public Resolution resolve(PlanStep step, ResolveContext context) {
        ObjectNode args = Json.object();
        args.put(
                "text",
                step.action().equals("undo")
                        ? Replies.undone(language(context), context.input().path("undo"))
                        : Replies.help(
                                language(context),
                                step.constraints().path("message").asText("")));
        return Resolution.execute(MemoResolvers.RESPOND, args);
    }
}
