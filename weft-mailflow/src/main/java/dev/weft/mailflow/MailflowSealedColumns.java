package dev.weft.mailflow;

import dev.weft.store.spi.SealedColumns;
import java.util.List;

/**
 * The email agent's sealed secrets: each venue's mailbox password and Microsoft Graph token, and the
 * tokens (and client secret) of its Microsoft 365 sign-in.
 */
public final class MailflowSealedColumns implements SealedColumns {
    @Override
    public List<SealedColumn> sealedColumns() {
        return List.of(
                new SealedColumn("mailflow_venues", "secret"),
                new SealedColumn("mailflow_venues", "graph_token"),
                new SealedColumn("mailflow_venue_grants", "refresh_token"),
                new SealedColumn("mailflow_venue_grants", "access_token"),
                new SealedColumn("mailflow_venue_grants", "client_secret"));
    }
}
