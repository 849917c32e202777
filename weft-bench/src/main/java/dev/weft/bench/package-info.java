/**
 * Weft's benchmarks: scenario runs with a plain {@code main} ({@link dev.weft.bench.Main}) that
 * compare Weft with its peers in the same JVM and print one line per measurement. Never shipped.
 */
@NullMarked
package dev.weft.bench;

import org.jspecify.annotations.NullMarked;
