package dev.weft.plan.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.weft.core.Json;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** JSON Schemas generated from Java records, and validation against them. Thread-safe. */
public final class Schemas {
    private static final SchemaGenerator GENERATOR;

    static {
        SchemaGeneratorConfigBuilder config = new SchemaGeneratorConfigBuilder(
                        Json.mapper(), SchemaVersion.DRAFT_2020_12, OptionPreset.PLAIN_JSON)
                .with(Option.FORBIDDEN_ADDITIONAL_PROPERTIES_BY_DEFAULT)
                .with(Option.FLATTENED_OPTIONALS);
        // A record component is required unless it is Optional or marked @Nullable.
        config.forFields()
                .withRequiredCheck(field -> !field.getType().isInstanceOf(Optional.class)
                        && field.getAnnotationConsideringFieldAndGetter(org.jspecify.annotations.Nullable.class)
                                == null);
        GENERATOR = new SchemaGenerator(config.build());
    }

    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private static final SchemaValidatorsConfig VALIDATION =
            SchemaValidatorsConfig.builder().pathType(PathType.JSON_POINTER).build();

    private Schemas() {}

    /** The JSON Schema (draft 2020-12) of {@code type}: records become closed objects. */
    public static ObjectNode of(Class<?> type) {
        return GENERATOR.generateSchema(type);
    }

    /** A schema compiled for repeated validation. */
    public static JsonSchema compile(JsonNode schema) {
        return FACTORY.getSchema(schema, VALIDATION);
    }

    /** One way an instance breaks its schema: where (a JSON pointer) and why. */
    public record Violation(String pointer, String message) {
        @Override
        public String toString() {
            return pointer + ": " + message;
        }
    }

    /** Every violation, ordered by pointer; empty when the instance is valid. */
    public static List<Violation> validate(JsonSchema schema, JsonNode instance) {
        Set<ValidationMessage> messages = schema.validate(instance);
        if (messages.isEmpty()) {
            return List.of();
        }
        return messages.stream()
                .map(Schemas::violation)
                .sorted(Comparator.comparing(Violation::pointer).thenComparing(Violation::message))
                .toList();
    }

    private static Violation violation(ValidationMessage message) {
        String pointer = message.getInstanceLocation().toString();
        if (pointer.isEmpty()) {
            pointer = "";
        }
        String property = message.getProperty();
        if (property != null
                && ("required".equals(message.getType()) || "additionalProperties".equals(message.getType()))) {
            pointer = pointer + "/" + property;
        }
        String text = message.getMessage();
        int colon = text.indexOf(": ");
        if (text.startsWith("/") || text.startsWith("$")) {
            text = colon >= 0 ? text.substring(colon + 2) : text;
        }
        return new Violation(pointer.isEmpty() ? "/" : pointer, text);
    }
}
