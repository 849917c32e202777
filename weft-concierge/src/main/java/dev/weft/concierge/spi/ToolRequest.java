package dev.weft.concierge.spi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/** A tool a specialist asks for in its first pass, with the arguments it gives (the dispatcher adds the session). */
public record ToolRequest(String name, ObjectNode args) {
    public ToolRequest {
        Objects.requireNonNull(name, "name");
        args = Objects.requireNonNull(args, "args").deepCopy();
    }
}
