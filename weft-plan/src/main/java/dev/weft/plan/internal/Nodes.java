package dev.weft.plan.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;

/**
 * Object nodes sized for the fields they will hold. A default {@code ObjectNode} allocates a
 * 16-slot table on its first field; the events and outcomes a step writes hold two to five fields
 * and many of them stay in the store for the run's life, so a table sized to fit is both less
 * garbage and less live heap. The nodes are otherwise exactly what {@code Json.object()} makes.
 */
public final class Nodes {
    private Nodes() {}

    /** An empty object node whose map takes {@code fields} fields without growing (and grows past that as usual). */
    public static ObjectNode object(int fields) {
        return new ObjectNode(JsonNodeFactory.instance, LinkedHashMap.newLinkedHashMap(fields));
    }
}
