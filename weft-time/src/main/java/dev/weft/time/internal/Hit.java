package dev.weft.time.internal;

/** A grammar rule's reading of a value, ending before token {@code end}. */
record Hit<T>(T value, int end) {}
