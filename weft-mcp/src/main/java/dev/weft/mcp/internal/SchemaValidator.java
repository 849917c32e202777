package dev.weft.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.JsonSchemaValidatorSupplier;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The MCP SDK's check of a tool's structured output against its output schema, on the same
 * json-schema-validator (draft 2020-12) that checks plan tools' arguments. Schemas are compiled once
 * and kept; thread-safe.
 */
public final class SchemaValidator implements JsonSchemaValidator {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    private static final int MAX_KEPT = 512;
    private static final SchemaValidator INSTANCE = new SchemaValidator();

    private final Map<JsonNode, JsonSchema> compiled = new ConcurrentHashMap<>();

    public static SchemaValidator instance() {
        return INSTANCE;
    }

    @Override
    public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
        if (schema == null || structuredContent == null) {
            throw new IllegalArgumentException("a schema and the content to check are both required");
        }
        try {
            JsonNode content = structuredContent instanceof String text
                    ? MAPPER.readTree(text)
                    : MAPPER.valueToTree(structuredContent);
            JsonNode schemaNode = MAPPER.valueToTree(schema);
            if (compiled.size() > MAX_KEPT) {
                compiled.clear();
            }
            JsonSchema checker = compiled.computeIfAbsent(schemaNode, FACTORY::getSchema);
            Set<ValidationMessage> problems = checker.validate(content);
            return problems.isEmpty()
                    ? ValidationResponse.asValid(content.toString())
                    : ValidationResponse.asInvalid("structured content breaks the output schema: " + problems);
        } catch (Exception e) {
            return ValidationResponse.asInvalid("cannot check the structured content: " + e.getMessage());
        }
    }

    /** What the SDK's service loader finds. */
    public static final class Supplier implements JsonSchemaValidatorSupplier {
        @Override
        public JsonSchemaValidator get() {
            return INSTANCE;
        }
    }
}
