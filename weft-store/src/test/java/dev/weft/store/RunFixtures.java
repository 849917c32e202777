package dev.weft.store;

import com.fasterxml.jackson.databind.node.NullNode;
import dev.weft.core.Json;
import dev.weft.core.Run;
import dev.weft.core.RunStatus;
import dev.weft.core.spi.RunStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Runs and idempotency results as housekeeping finds them, for the tests of what prunes them. */
public final class RunFixtures {
    private RunFixtures() {}

    /** A new run in {@code status} (ended now when that is a final one); its id. */
    public static String run(RunStore store, RunStatus status) {
        String id = UUID.randomUUID().toString();
        store.createRun(new Run(
                id,
                "g",
                Optional.empty(),
                status,
                Json.object(),
                Map.of(),
                Map.of(),
                NullNode.getInstance(),
                Optional.empty(),
                Instant.now(),
                status.isFinished() ? Optional.of(Instant.now()) : Optional.empty(),
                Json.object(),
                Optional.empty()));
        return id;
    }

    /** An idempotency result under {@code key}, kept {@code age} ago. */
    public static void agedResult(RunStore store, String key, Duration age) {
        store.saveIdempotentResult(key, Json.object().put("sent", true));
        AppDatabase.of(store).write("age a result", c -> {
            try (java.sql.PreparedStatement update =
                    c.prepareStatement("UPDATE idempotency SET created_at = ? WHERE key = ?")) {
                update.setLong(1, JsonText.nanos(Instant.now().minus(age)));
                update.setString(2, key);
                return update.executeUpdate();
            }
        });
    }
}
