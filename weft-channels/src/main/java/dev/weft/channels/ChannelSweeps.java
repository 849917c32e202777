package dev.weft.channels;

import dev.weft.core.spi.RunStore;
import dev.weft.store.Housekeeping;
import dev.weft.store.spi.HousekeepingSweeps;
import java.util.List;
import java.util.Map;

/**
 * The channels' finished inbox and outbox rows, pruned after {@code WEFT_CHANNELS_RETENTION} by every
 * long-running process ({@link dev.weft.store.ProcessHousekeeping}), not only by one that runs a channel.
 */
public final class ChannelSweeps implements HousekeepingSweeps {
    /** The sweep's name, as the housekeeping reports it. */
    public static final String NAME = "channels inbox and outbox";

    @Override
    public List<Housekeeping.Sweep> sweeps(RunStore store, Map<String, String> env) {
        return List.of(new Housekeeping.Sweep(NAME, InboxWorker.retentionFromEnvironment(env), cutoff -> {
            ChannelStore.Pruned pruned = ChannelStore.open(store).prune(cutoff);
            return pruned.inbound() + pruned.outbound();
        }));
    }
}
