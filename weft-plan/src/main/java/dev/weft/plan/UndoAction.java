package dev.weft.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/** A tool call that reverses a committed step: which tool, with which arguments. */
public record UndoAction(String toolName, ObjectNode args) {
    public UndoAction {
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(args, "args");
    }
}
