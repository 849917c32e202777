package dev.weft.plan;

/** How much harm a tool call can do: a {@code HIGH} one waits for a person's approval. */
public enum Risk {
    LOW,
    HIGH
}
