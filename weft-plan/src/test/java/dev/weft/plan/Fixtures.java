package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

/** Test tools, resolvers and plans. */
final class Fixtures {
    private Fixtures() {}

    static JsonNode json(String text) {
        return Json.parse(text, "test JSON");
    }

    static ObjectNode object(String text) {
        return (ObjectNode) json(text);
    }

    /** A resolver that calls {@code tool} with the step's constraints as arguments (placeholders and all). */
    static Resolver passThrough(String capability, String tool) {
        return new Resolver() {
            @Override
            public String name() {
                return capability + "-resolver";
            }

            @Override
            public String capability() {
                return capability;
            }

            @Override
            public Set<String> actions() {
                return Set.of("create", "fetch", "send", "delete", "list");
            }

            @Override
            public Resolution resolve(PlanStep step, ResolveContext context) {
                return Resolution.execute(tool, step.constraints().deepCopy());
            }
        };
    }

    /** A resolver answering with whatever {@code function} says. */
    static Resolver resolver(String capability, BiFunction<PlanStep, ResolveContext, Resolution> function) {
        return new Resolver() {
            @Override
            public String name() {
                return capability + "-custom";
            }

            @Override
            public String capability() {
                return capability;
            }

            @Override
            public Set<String> actions() {
                return Set.of("create", "fetch", "send", "delete", "list", "ask");
            }

            @Override
            public Resolution resolve(PlanStep step, ResolveContext context) {
                return function.apply(step, context);
            }
        };
    }

    record Title(String title) {}

    record Created(String id, String title) {}

    record Id(String id) {}

    record Deleted(String id, boolean deleted) {}

    /** Records every call, in order, across threads. */
    static final class Calls {
        final List<String> log = Collections.synchronizedList(new ArrayList<>());

        void add(String entry) {
            log.add(entry);
        }

        List<String> snapshot() {
            synchronized (log) {
                return List.copyOf(log);
            }
        }
    }

    /** A time source that never sleeps. */
    static final class FakeTime implements TimeSource {
        final List<Duration> sleeps = Collections.synchronizedList(new ArrayList<>());
        private Instant now = Instant.parse("2026-11-21T10:00:00Z");

        @Override
        public synchronized Instant now() {
            now = now.plusMillis(1);
            return now;
        }

        @Override
        public void sleep(Duration duration) {
            sleeps.add(duration);
        }
    }

    static Plan plan(String json) {
        return PlanParser.parse(json);
    }
}
