package dev.weft.core;

import java.util.Objects;

/** A connection from {@code source} to {@code target}, taken when {@code source} routes by {@code handle}. */
public record Edge(String source, String handle, String target) {
    public Edge {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(handle, "handle");
        Objects.requireNonNull(target, "target");
    }

    @Override
    public String toString() {
        return source + (Graph.OUTPUT.equals(handle) ? "" : " [" + handle + "]") + " -> " + target;
    }
}
