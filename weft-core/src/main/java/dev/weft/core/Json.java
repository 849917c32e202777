package dev.weft.core;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The one Jackson mapper Weft uses, configured once. Thread-safe. */
public final class Json {
    // One shared buffer pool rather than one per thread: with a virtual thread per step, per-thread
    // buffers would cost 4 KiB for every step in flight.
    private static final ObjectMapper MAPPER = JsonMapper.builder(com.fasterxml.jackson.core.JsonFactory.builder()
                    .recyclerPool(com.fasterxml.jackson.core.util.JsonRecyclerPools.sharedConcurrentDequePool())
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .findAndAddModules()
            .build();

    private Json() {}

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    /**
     * An empty object node whose map takes {@code fields} fields without growing (and grows past that
     * as usual): a default one allocates a 16-slot table on its first field, which the small objects
     * of events, many kept for a run's life, do not need.
     */
    public static ObjectNode object(int fields) {
        return new ObjectNode(JsonNodeFactory.instance, java.util.LinkedHashMap.newLinkedHashMap(fields));
    }

    /** Parses JSON text, turning Jackson's exception into {@link ErrorCode#E_BAD_INPUT} naming {@code what}. */
    public static JsonNode parse(String text, String what) {
        try {
            return MAPPER.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, what + " is not valid JSON: " + describe(e), e);
        }
    }

    /** Jackson's message without its source excerpt, with the line and column where it broke. */
    public static String describe(com.fasterxml.jackson.core.JsonProcessingException e) {
        String message = e.getOriginalMessage() == null ? "malformed JSON" : e.getOriginalMessage();
        int cut = message.indexOf(" (start marker at");
        if (cut < 0) {
            cut = message.indexOf("\n");
        }
        if (cut >= 0) {
            message = message.substring(0, cut);
        }
        com.fasterxml.jackson.core.JsonLocation where = e.getLocation();
        if (where != null && where.getLineNr() > 0) {
            message += " (line " + where.getLineNr() + ", column " + where.getColumnNr() + ")";
        }
        return message;
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write as JSON: " + e.getOriginalMessage(), e);
        }
    }
}
