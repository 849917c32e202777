package dev.weft.redis.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import dev.weft.plan.ResolverRegistry;
import dev.weft.plan.Tool;
import dev.weft.plan.ToolRegistry;
import dev.weft.plan.spi.PlanExecutorProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * The plan executor {@value #NAME} of the queue's tests, found by worker processes by its name: steps
 * of capability {@code test} call the tool their action names with their constraints. {@code sleep}
 * waits {@code ms}, then makes its effect: it appends its idempotency key to the file {@code log},
 * unless an effect with that key was made already (as a tool that honours its idempotency key does);
 * every call, effect or not, is appended to {@code log}{@code .calls}. {@code poison} fails every
 * time in a way no retry helps.
 */
public final class TestExecutors implements PlanExecutorProvider {
    public static final String NAME = "test-steps";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public PlanExecutor executor(RunStore store) {
        return executor();
    }

    public static PlanExecutor executor() {
        ObjectSchema sleepInput = new ObjectSchema(
                "{\"type\": \"object\", \"properties\": {\"ms\": {\"type\": \"integer\"}, \"log\": {\"type\":"
                        + " \"string\"}}, \"required\": [\"ms\"]}");
        Tool sleep = Tool.json(
                        "sleep", "waits, then notes its key in a file", sleepInput.node(), object(), (args, ctx) -> {
                            try {
                                Thread.sleep(args.path("ms").asLong());
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                                throw new IllegalStateException("interrupted while sleeping", e);
                            }
                            String log = args.path("log").asText("");
                            if (!log.isEmpty()) {
                                effect(Path.of(log), ctx.idempotencyKey());
                            }
                            return Json.object()
                                    .put("slept", args.path("ms").asLong())
                                    .put("key", ctx.idempotencyKey());
                        })
                .idempotent(false)
                .build();
        Tool poison = Tool.json("poison", "fails every time", object(), object(), (args, ctx) -> {
                    throw new StackOverflowError("poisoned step");
                })
                .build();
        Resolver resolver = new Resolver() {
            @Override
            public String name() {
                return "test";
            }

            @Override
            public String capability() {
                return "test";
            }

            @Override
            public Set<String> actions() {
                return Set.of("sleep", "poison");
            }

            @Override
            public Resolution resolve(PlanStep step, ResolveContext context) {
                return Resolution.execute(step.action(), step.constraints().deepCopy());
            }
        };
        return PlanExecutor.builder()
                .name(NAME)
                .resolvers(ResolverRegistry.of(resolver))
                .tools(ToolRegistry.of(sleep, poison))
                .build();
    }

    private static com.fasterxml.jackson.databind.node.ObjectNode object() {
        return Json.object().put("type", "object");
    }

    private record ObjectSchema(String text) {
        com.fasterxml.jackson.databind.node.ObjectNode node() {
            return (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(text, "schema");
        }
    }

    /**
     * The sleep tool's effect: once per key, across processes (a file per key, made only if it is not
     * there, is the record); each call is counted in {@code <log>.calls}.
     */
    static void effect(Path log, String key) {
        append(Path.of(log + ".calls"), key);
        Path made = Path.of(log + ".d", key.replace('/', '_'));
        try {
            Files.createDirectories(made.getParent());
            Files.createFile(made);
        } catch (java.nio.file.FileAlreadyExistsException e) {
            return;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        append(log, key);
    }

    /** Appends {@code line} to {@code file} in one write, so that lines from several processes never mix. */
    static void append(Path file, String line) {
        try {
            Files.writeString(
                    file, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A plan of {@code steps} independent steps that each sleep {@code ms} and note their key in {@code log}. */
    public static JsonNode sleepingPlan(int steps, long ms, Path log) {
        var plan = Json.object();
        plan.put("intentType", "test");
        plan.put("confidence", 1);
        var array = plan.putArray("plan");
        for (int i = 1; i <= steps; i++) {
            var step = array.addObject();
            step.put("id", "s" + i);
            step.put("capability", "test");
            step.put("action", "sleep");
            step.putObject("constraints").put("ms", ms).put("log", log.toString());
        }
        return plan;
    }
}
