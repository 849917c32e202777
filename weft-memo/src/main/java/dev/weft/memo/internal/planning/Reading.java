package dev.weft.memo.internal.planning;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.util.Objects;

/** A request read into a plan step: its capability, action, constraints and changes (seed 000). */
public record Reading(String capability, String action, ObjectNode constraints, ObjectNode changes) {
    public Reading {
        Objects.requireNonNull(capability, "capability");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(constraints, "constraints");
        Objects.requireNonNull(changes, "changes");
    }

    static Reading of(String capability, String action, ObjectNode constraints) {
        return new Reading(capability, action, constraints, Json.object());
    }
}
