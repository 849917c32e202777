package dev.weft.llm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/** JSON Schemas (draft 2020-12) compiled once and validated against many times. Thread-safe. */
public final class JsonSchemas {
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private static final SchemaValidatorsConfig CONFIG =
            SchemaValidatorsConfig.builder().pathType(PathType.JSON_POINTER).build();

    private JsonSchemas() {}

    /** A schema ready for validation, with its source. */
    public record Compiled(JsonNode source, JsonSchema schema) {
        public Compiled {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(schema, "schema");
        }

        /** Every way {@code instance} breaks the schema, ordered by pointer; empty when it is valid. */
        public List<Violation> validate(JsonNode instance) {
            return schema.validate(instance).stream()
                    .map(JsonSchemas::violation)
                    .sorted(Comparator.comparing(Violation::pointer).thenComparing(Violation::message))
                    .toList();
        }
    }

    /** One way an instance breaks its schema: where (a JSON pointer, {@code /} for the root) and why. */
    public record Violation(String pointer, String message) {
        @Override
        public String toString() {
            return pointer + ": " + message;
        }
    }

    /**
     * Compiles {@code schema}.
     *
     * @throws IllegalArgumentException when it is not a JSON object or does not compile
     */
    public static Compiled compile(JsonNode schema) {
        if (!schema.isObject()) {
            throw new IllegalArgumentException("a JSON Schema must be an object, was " + schema.getNodeType());
        }
        try {
            return new Compiled(schema.deepCopy(), FACTORY.getSchema(schema, CONFIG));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a valid JSON Schema: " + e.getMessage(), e);
        }
    }

    private static Violation violation(ValidationMessage message) {
        String pointer = message.getInstanceLocation().toString();
        String property = message.getProperty();
        if (property != null
                && ("required".equals(message.getType()) || "additionalProperties".equals(message.getType()))) {
            pointer = pointer + "/" + property;
        }
        String text = message.getMessage();
        int colon = text.indexOf(": ");
        if ((text.startsWith("/") || text.startsWith("$")) && colon >= 0) {
            text = text.substring(colon + 2);
        }
        return new Violation(pointer.isEmpty() ? "/" : pointer, text);
    }
}
