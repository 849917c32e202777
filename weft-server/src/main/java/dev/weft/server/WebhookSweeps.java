package dev.weft.server;

import dev.weft.core.spi.RunStore;
import dev.weft.store.AppDatabase;
import dev.weft.store.Housekeeping;
import dev.weft.store.ProcessHousekeeping;
import dev.weft.store.spi.HousekeepingSweeps;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The records of webhook deliveries that ended, pruned after {@code WEFT_RETAIN_WEBHOOK_DELIVERIES}
 * (default 30 days) by every long-running process ({@link ProcessHousekeeping}: {@code weft worker},
 * {@code weft channels telegram}) as well as by {@code weft serve}, but those of each user's latest
 * notifications, which keep them from being sent again. Thread-safe.
 */
public final class WebhookSweeps implements HousekeepingSweeps {
    /** The sweep's name, as the housekeeping reports it. */
    public static final String NAME = "webhook deliveries";

    /** The setting that says how long an ended delivery's record is kept. */
    public static final String RETENTION = "WEFT_RETAIN_WEBHOOK_DELIVERIES";

    @Override
    public List<Housekeeping.Sweep> sweeps(RunStore store, Map<String, String> env) {
        Duration retention =
                ProcessHousekeeping.duration(env, RETENTION, WeftServer.DEFAULT_WEBHOOK_DELIVERY_RETENTION, false);
        AppDatabase db = AppDatabase.of(store);
        return List.of(sweep(
                new Supplier<>() {
                    private Webhooks webhooks;

                    @Override
                    public synchronized Webhooks get() {
                        if (webhooks == null) {
                            // A process that never served may find no webhook tables yet: made as weft
                            // serve makes them, once, at the first sweep rather than at the process's start.
                            db.migrate(ApiKeys.MIGRATIONS, WebhookSweeps.class.getClassLoader());
                            webhooks = new Webhooks(db);
                        }
                        return webhooks;
                    }
                },
                retention));
    }

    /** The sweep over the webhooks {@code webhooks} gives, keeping ended records {@code retention}. */
    static Housekeeping.Sweep sweep(Supplier<Webhooks> webhooks, Duration retention) {
        return new Housekeeping.Sweep(
                NAME, retention, cutoff -> webhooks.get().pruneEnded(cutoff, WebhookDispatcher.RECENT));
    }
}
