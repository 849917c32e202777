package dev.weft.workflow.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.NodeResult;
import dev.weft.core.NodeSpec;
import dev.weft.core.WeftException;
import dev.weft.workflow.spi.Expression;
import dev.weft.workflow.spi.NodeConfig;
import dev.weft.workflow.spi.NodeType;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** The node types every workflow can use: trigger, condition, guardrail, transform, delay, approval. */
public final class StandardNodeTypes {
    private StandardNodeTypes() {}

    public static List<NodeType> all() {
        return List.of(TRIGGER, CONDITION, GUARDRAIL, TRANSFORM, DELAY, APPROVAL);
    }

    private record Simple(
            String name, Set<String> configFields, Function<NodeConfig, NodeSpec.Builder> factory, boolean queueable)
            implements NodeType {
        Simple(String name, Set<String> configFields, Function<NodeConfig, NodeSpec.Builder> factory) {
            this(name, configFields, factory, true);
        }

        @Override
        public NodeSpec.Builder create(NodeConfig config) {
            return factory.apply(config);
        }
    }

    /** The entry point: outputs the run input. */
    static final NodeType TRIGGER =
            new Simple("trigger", Set.of(), config -> config.spec(context -> NodeResult.output(context.runInput())));

    /** {@code {"result": bool}}; takes {@code positive} when true, {@code negative} when false. */
    static final NodeType CONDITION = new Simple("condition", Set.of("expression"), config -> {
        Expression expression = config.expression("expression");
        return config.spec(context -> {
                    ObjectNode out = Json.object();
                    out.put("result", bool(expression, expression.evaluate(context)));
                    return NodeResult.output(out);
                })
                .booleanBranch("result");
    });

    /** {@code {"passed": bool}}; takes {@code positive} when passed; a {@code negative} edge may loop back. */
    static final NodeType GUARDRAIL = new Simple("guardrail", Set.of("expression", "message"), config -> {
        Expression expression = config.expression("expression");
        String message = config.optionalString("message").orElse("");
        return config.spec(context -> {
                    boolean passed = bool(expression, expression.evaluate(context));
                    ObjectNode out = Json.object();
                    out.put("passed", passed);
                    if (!passed && !message.isEmpty()) {
                        out.put("message", message);
                    }
                    return NodeResult.output(out);
                })
                .booleanBranch("passed");
    });

    /** An object of CEL expressions (nested objects and arrays allowed) → an object of their values. */
    static final NodeType TRANSFORM = new Simple("transform", Set.of("output"), config -> {
        JsonNode output = config.required("output");
        if (!output.isObject()) {
            throw config.problem("output", "must be an object whose values are CEL expressions");
        }
        Template template = Template.compile(config, "output", output);
        return config.spec(context -> NodeResult.output(template.evaluate(context)));
    });

    /** Waits {@code config.ms} milliseconds, then outputs its input. */
    static final NodeType DELAY = new Simple("delay", Set.of("ms"), config -> {
        long ms = config.requiredLong("ms", 0);
        return config.spec(context -> {
            try {
                context.time().sleep(Duration.ofMillis(ms));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new WeftException(ErrorCode.E_CANCELLED, "interrupted while waiting " + ms + " ms");
            }
            return NodeResult.output(context.input());
        });
    });

    /** Pauses the run; its output is the value the run is resumed with. */
    static final NodeType APPROVAL = new Simple(
            "approval",
            Set.of("message"),
            config -> {
                String message = config.optionalString("message").orElse("approval needed");
                return config.spec(context -> {
                    if (context.resumeValue().isPresent()) {
                        return NodeResult.output(context.resumeValue().get());
                    }
                    ObjectNode payload = Json.object();
                    payload.put("type", "approval");
                    payload.put("node", context.nodeId());
                    payload.put("message", message);
                    payload.set("input", context.input());
                    return NodeResult.interrupt(payload);
                });
            },
            false);

    private static boolean bool(Expression expression, JsonNode value) {
        if (!value.isBoolean()) {
            throw new WeftException(
                    ErrorCode.E_NODE_FAILED,
                    "config.expression (" + expression.source()
                            + ") must give a boolean, gave "
                            + value.getNodeType().name().toLowerCase(java.util.Locale.ROOT)
                            + " " + value);
        }
        return value.asBoolean();
    }

    /** A JSON shape whose string leaves are CEL expressions; other leaves are literals. */
    private interface Template {
        JsonNode evaluate(dev.weft.core.NodeContext context);

        static Template compile(NodeConfig config, String path, JsonNode shape) {
            if (shape.isTextual()) {
                Expression expression = config.compile(path, shape.asText());
                return context -> expression.evaluate(context);
            }
            if (shape.isObject()) {
                Map<String, Template> fields = new LinkedHashMap<>();
                for (Map.Entry<String, JsonNode> field : shape.properties()) {
                    fields.put(field.getKey(), compile(config, path + "." + field.getKey(), field.getValue()));
                }
                return new ObjectTemplate(fields);
            }
            if (shape.isArray()) {
                List<Template> items = new java.util.ArrayList<>();
                for (int i = 0; i < shape.size(); i++) {
                    items.add(compile(config, path + "[" + i + "]", shape.get(i)));
                }
                return new ArrayTemplate(items);
            }
            JsonNode literal = shape.deepCopy();
            return context -> literal;
        }
    }

    private record ObjectTemplate(Map<String, Template> fields) implements Template {
        @Override
        public JsonNode evaluate(dev.weft.core.NodeContext context) {
            ObjectNode out = Json.object();
            fields.forEach((name, template) -> out.set(name, template.evaluate(context)));
            return out;
        }
    }

    private record ArrayTemplate(List<Template> items) implements Template {
        @Override
        public JsonNode evaluate(dev.weft.core.NodeContext context) {
            var out = Json.mapper().createArrayNode();
            items.forEach(item -> out.add(item.evaluate(context)));
            return out;
        }
    }
}
