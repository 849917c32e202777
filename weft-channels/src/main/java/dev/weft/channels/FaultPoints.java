package dev.weft.channels;

import java.util.concurrent.locks.LockSupport;

/**
 * Named points of the channels' delivery where a fault test stops the process, to kill it there: when
 * the system property {@code weft.fault.pause} names a point, the thread that reaches it prints {@code
 * weft-fault: paused at <point>} on standard output and waits for ever (the test then kills the JVM).
 * Inert unless the property is set, which nothing but a test does. Thread-safe.
 */
final class FaultPoints {
    /** A kept message is about to be handled: it is durable and acknowledged, nothing is answered. */
    static final String BEFORE_TURN = "channels.before-turn";
    /** The assistant's turn ran; its reply is not yet in the outbox. */
    static final String AFTER_TURN = "channels.after-turn";
    /** The reply is in the outbox and about to be sent. */
    static final String BEFORE_SEND = "channels.before-send";
    /** The provider accepted the reply; the outbox does not yet say so. */
    static final String AFTER_SEND = "channels.after-send";

    private static final String PAUSE = System.getProperty("weft.fault.pause", "");

    private FaultPoints() {}

    static void reach(String point) {
        if (PAUSE.isEmpty() || !PAUSE.equals(point)) {
            return;
        }
        System.out.println("weft-fault: paused at " + point);
        System.out.flush();
        while (true) {
            LockSupport.park();
        }
    }
}
