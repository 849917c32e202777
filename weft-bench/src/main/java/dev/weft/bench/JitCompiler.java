package dev.weft.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * Whether the JIT compiler is still at work: the benchmarks warm up until it is quiet. On a small
 * machine a compiler at work takes a core from the measurement, and code it has not finished with
 * runs slower and allocates more (no escape analysis yet), so a measurement taken before it is done
 * measures the warm-up.
 */
final class JitCompiler {
    /** The share of a stretch of time the compiler may spend compiling for the stretch to count as quiet. */
    static final double QUIET_SHARE = 0.02;

    private JitCompiler() {}

    /** The compiler's time so far, summed over its threads; 0 where the JVM does not tell. */
    static long millis() {
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        return compiler != null && compiler.isCompilationTimeMonitoringSupported()
                ? compiler.getTotalCompilationTime()
                : 0;
    }

    /** Whether the compiler worked for more than {@value #QUIET_SHARE} of {@code elapsedNanos}. */
    static boolean busy(long compilingMillis, long elapsedNanos) {
        return compilingMillis * 1_000_000.0 > QUIET_SHARE * elapsedNanos;
    }
}
