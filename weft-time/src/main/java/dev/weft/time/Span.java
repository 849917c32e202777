package dev.weft.time;

/** Where an expression sits in the text: UTF-16 offsets, {@code start} inclusive, {@code end} exclusive. */
public record Span(int start, int end) {
    public Span {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("span must satisfy 0 <= start <= end, was [" + start + ", " + end + "]");
        }
    }
}
