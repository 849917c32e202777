/**
 * Weft's graph runtime: graphs of nodes joined by handle-labelled edges, compiled before they run,
 * and the {@link dev.weft.core.Runner} that executes them as runs of steps with events, interrupts,
 * cancellation, retries and pinned outputs.
 */
@NullMarked
package dev.weft.core;

import org.jspecify.annotations.NullMarked;
