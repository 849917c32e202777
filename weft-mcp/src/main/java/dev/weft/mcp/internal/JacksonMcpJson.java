package dev.weft.mcp.internal;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.McpJsonMapperSupplier;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;

/**
 * The MCP SDK's JSON mapping on Jackson 2, the JSON library of the rest of Weft, so that the SDK's
 * core is enough (its own Jackson 2 module brings a second, incompatible json-schema-validator).
 * Registered for the SDK's service loader; thread-safe.
 */
public final class JacksonMcpJson implements McpJsonMapper {
    private static final ObjectMapper MAPPER =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private static final JacksonMcpJson INSTANCE = new JacksonMcpJson();

    private JacksonMcpJson() {}

    public static JacksonMcpJson instance() {
        return INSTANCE;
    }

    @Override
    public <T> T readValue(String content, Class<T> type) throws IOException {
        return MAPPER.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, Class<T> type) throws IOException {
        return MAPPER.readValue(content, type);
    }

    @Override
    public <T> T readValue(String content, TypeRef<T> type) throws IOException {
        return MAPPER.readValue(content, javaType(type));
    }

    @Override
    public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
        return MAPPER.readValue(content, javaType(type));
    }

    @Override
    public <T> T convertValue(Object fromValue, Class<T> type) {
        return MAPPER.convertValue(fromValue, type);
    }

    @Override
    public <T> T convertValue(Object fromValue, TypeRef<T> type) {
        return MAPPER.convertValue(fromValue, javaType(type));
    }

    @Override
    public String writeValueAsString(Object value) throws IOException {
        return MAPPER.writeValueAsString(value);
    }

    @Override
    public byte[] writeValueAsBytes(Object value) throws IOException {
        return MAPPER.writeValueAsBytes(value);
    }

    private static JavaType javaType(TypeRef<?> type) {
        return MAPPER.getTypeFactory().constructType(type.getType());
    }

    /** What the SDK's service loader finds. */
    public static final class Supplier implements McpJsonMapperSupplier {
        @Override
        public McpJsonMapper get() {
            return INSTANCE;
        }
    }
}
