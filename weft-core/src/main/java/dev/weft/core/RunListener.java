package dev.weft.core;

/**
 * Receives a run's events as they happen, on the thread that produced them (so quickly, and without
 * blocking). A listener that throws is reported and otherwise ignored: it cannot break a run.
 */
@FunctionalInterface
public interface RunListener {
    void onEvent(Event event);
}
