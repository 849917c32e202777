package dev.weft.workflow.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.Program;
import dev.weft.core.ErrorCode;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.NodeContext;
import dev.weft.core.WeftException;
import dev.weft.workflow.spi.Expression;
import dev.weft.workflow.spi.NodeConfig;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Compiles and evaluates workflow expressions with CEL. Thread-safe: one environment serves every workflow. */
public final class CelExpressions {
    private static final Cel CEL = CelFactory.standardCelBuilder()
            .setOptions(CelOptions.current()
                    .enableHeterogeneousNumericComparisons(true)
                    .build())
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addVar("input", SimpleType.DYN)
            .addVar("vars", MapType.create(SimpleType.STRING, SimpleType.DYN))
            .addVar("nodes", MapType.create(SimpleType.STRING, SimpleType.DYN))
            .build();

    private CelExpressions() {}

    /** Compiles and type-checks {@code source}, or fails naming the node and field. */
    public static Expression compile(NodeConfig.Source source) {
        CelAbstractSyntaxTree ast;
        Program program;
        try {
            ast = CEL.compile(source.text()).getAst();
            program = CEL.createProgram(ast);
        } catch (CelValidationException e) {
            throw new GraphInvalidException("node '" + source.nodeId() + "': config." + source.field()
                    + " does not compile: " + firstLine(e.getMessage()));
        } catch (dev.cel.common.CelException e) {
            throw new GraphInvalidException("node '" + source.nodeId() + "': config." + source.field()
                    + " cannot be planned: " + firstLine(e.getMessage()));
        }
        return new CompiledExpression(source, program);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unknown error";
        }
        String cleaned = message.replaceFirst("^ERROR: <input>:", "at ");
        return cleaned.replace('\n', ' ').replaceAll("\\s+", " ").trim();
    }

    private record CompiledExpression(NodeConfig.Source where, Program program) implements Expression {
        @Override
        public String source() {
            return where.text();
        }

        @Override
        public JsonNode evaluate(NodeContext context) {
            return evaluate(context.runInput(), context.variables(), context.outputs());
        }

        @Override
        public JsonNode evaluate(JsonNode input, Map<String, JsonNode> vars, Map<String, JsonNode> nodes) {
            Map<String, Object> activation = new HashMap<>(4);
            activation.put("input", toCel(input));
            activation.put("vars", toCelMap(vars));
            activation.put("nodes", toCelMap(nodes));
            try {
                return fromCel(program.eval(activation));
            } catch (CelEvaluationException e) {
                throw new WeftException(
                        ErrorCode.E_NODE_FAILED,
                        "config." + where.field() + " (" + where.text() + ") failed: " + firstLine(e.getMessage()));
            }
        }
    }

    static Map<String, Object> toCelMap(Map<String, JsonNode> values) {
        Map<String, Object> map = new LinkedHashMap<>();
        values.forEach((k, v) -> map.put(k, toCel(v)));
        return map;
    }

    static Object toCel(JsonNode node) {
        return switch (node.getNodeType()) {
            case OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                node.properties().forEach(e -> map.put(e.getKey(), toCel(e.getValue())));
                yield map;
            }
            case ARRAY -> {
                List<Object> list = new ArrayList<>(node.size());
                node.forEach(item -> list.add(toCel(item)));
                yield list;
            }
            case NUMBER ->
                node.isIntegralNumber() && node.canConvertToLong() ? (Object) node.asLong() : (Object) node.asDouble();
            case BOOLEAN -> node.asBoolean();
            case STRING -> node.asText();
            case BINARY -> ByteString.copyFrom(binary(node));
            case NULL, MISSING, POJO -> dev.cel.common.values.NullValue.NULL_VALUE;
        };
    }

    private static byte[] binary(JsonNode node) {
        try {
            return node.binaryValue();
        } catch (java.io.IOException e) {
            return new byte[0];
        }
    }

    static JsonNode fromCel(Object value) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        if (value instanceof Map<?, ?> map) {
            ObjectNode object = json.objectNode();
            map.forEach((k, v) -> object.set(String.valueOf(k), fromCel(v)));
            return object;
        }
        if (value instanceof List<?> list) {
            ArrayNode array = json.arrayNode();
            list.forEach(item -> array.add(fromCel(item)));
            return array;
        }
        return switch (value) {
            case Boolean b -> json.booleanNode(b);
            // Numbers come back as the mapper reads them from text: ints when they fit, decimals for fractions.
            case Long l -> l == l.intValue() ? json.numberNode(l.intValue()) : json.numberNode(l);
            case Integer i -> json.numberNode(i);
            case Double d -> Double.isFinite(d) ? json.numberNode(BigDecimal.valueOf(d)) : json.numberNode(d);
            case Float f -> json.numberNode(f);
            case String s -> json.textNode(s);
            case BigInteger big -> json.numberNode(big);
            case com.google.common.primitives.UnsignedLong u -> json.numberNode(u.bigIntegerValue());
            case ByteString bytes -> json.textNode(Base64.getEncoder().encodeToString(bytes.toByteArray()));
            case dev.cel.common.values.NullValue n -> json.nullNode();
            case com.google.protobuf.NullValue n -> json.nullNode();
            default -> json.textNode(String.valueOf(value));
        };
    }
}
