package dev.weft.store.spi;

import dev.weft.core.spi.RunStore;
import dev.weft.store.Housekeeping;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The rows a module keeps only for a while, pruned by every long-running process ({@code weft serve},
 * {@code weft worker}, {@code weft channels telegram}) and not only by the one that wrote them. A module
 * lists its own in {@code META-INF/services/dev.weft.store.spi.HousekeepingSweeps}; the store never
 * names a module's tables.
 */
public interface HousekeepingSweeps {
    /**
     * The module's sweeps over {@code store}, their retentions read from {@code env} (the process's
     * environment).
     *
     * @throws dev.weft.core.WeftException {@code E_BAD_INPUT} for a retention in {@code env} that is not one
     */
    List<Housekeeping.Sweep> sweeps(RunStore store, Map<String, String> env);

    /** Every module's sweeps on {@code loader}'s class path. */
    static List<Housekeeping.Sweep> all(RunStore store, Map<String, String> env, ClassLoader loader) {
        return ServiceLoader.load(HousekeepingSweeps.class, loader).stream()
                .flatMap(provider -> provider.get().sweeps(store, env).stream())
                .toList();
    }
}
