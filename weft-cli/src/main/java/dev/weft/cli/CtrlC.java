package dev.weft.cli;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * Ctrl-C at a terminal (SIGINT) handled by the command instead of ending the JVM. The JDK's signal API
 * ({@code sun.misc.Signal}, module {@code jdk.unsupported}) is reached reflectively, since the build
 * treats its compile-time warning as an error; where it is missing, Ctrl-C keeps its default.
 */
final class CtrlC {
    private CtrlC() {}

    /** Calls {@code handler} on each Ctrl-C; whether the handler was installed. */
    static boolean handle(Runnable handler) {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
            Object interrupt = signal.getConstructor(String.class).newInstance("INT");
            Object proxy =
                    Proxy.newProxyInstance(CtrlC.class.getClassLoader(), new Class<?>[] {handlerType}, (p, m, a) -> {
                        if (m.getName().equals("handle")) {
                            handler.run();
                        }
                        return null;
                    });
            Method handle = signal.getMethod("handle", signal, handlerType);
            handle.invoke(null, interrupt, proxy);
            return true;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return false;
        }
    }
}
