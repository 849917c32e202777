package dev.weft.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import dev.weft.plan.ResolverRegistry;
import dev.weft.plan.Risk;
import dev.weft.plan.Tool;
import dev.weft.plan.ToolRegistry;
import dev.weft.plan.spi.PlanExecutorProvider;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * The plan executor the command's tests find on the class path, as an assistant's would be: a
 * {@code note} tool, a high-risk {@code send} tool, and a {@code stall} tool whose first call never
 * returns (its process is taken for dead).
 */
public final class TestPlans implements PlanExecutorProvider {
    static final String NAME = "cli-test";
    static final List<String> CALLS = new CopyOnWriteArrayList<>();
    static final CountDownLatch STALLED = new CountDownLatch(1);

    record Text(String text) {}

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PlanExecutor executor(RunStore store) {
        return executor();
    }

    static PlanExecutor executor() {
        Tool note = Tool.typed("note", "notes", Text.class, Text.class, (in, ctx) -> {
                    CALLS.add("note:" + in.text());
                    return in;
                })
                .build();
        Tool send = Tool.typed("send", "sends", Text.class, Text.class, (in, ctx) -> {
                    CALLS.add("send:" + in.text());
                    return in;
                })
                .risk(Risk.HIGH)
                .build();
        Tool stall = Tool.typed("stall", "stalls on its first call", Text.class, Text.class, (in, ctx) -> {
                    if (STALLED.getCount() > 0) {
                        STALLED.countDown();
                        try {
                            new CountDownLatch(1).await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    CALLS.add("stall:" + in.text());
                    return in;
                })
                .timeout(java.time.Duration.ofHours(1))
                .build();
        Resolver byAction = new Resolver() {
            @Override
            public String name() {
                return "by-action";
            }

            @Override
            public String capability() {
                return "test";
            }

            @Override
            public Set<String> actions() {
                return Set.of("note", "send", "stall");
            }

            @Override
            public Resolution resolve(PlanStep step, ResolveContext context) {
                ObjectNode args = Json.object();
                args.put("text", step.constraints().path("text").asText());
                return Resolution.execute(step.action(), args);
            }
        };
        return PlanExecutor.builder()
                .name(NAME)
                .resolvers(ResolverRegistry.of(byAction))
                .tools(ToolRegistry.of(note, send, stall))
                .build();
    }
}
