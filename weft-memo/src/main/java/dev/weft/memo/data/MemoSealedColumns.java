package dev.weft.memo.data;

import dev.weft.store.spi.SealedColumns;
import java.util.List;

/**
 * Memo's sealed secrets: the passwords and tokens of users' mail accounts and calendar connections,
 * and the OAuth grants they signed in with (the client's secret, the refresh and access tokens).
 */
public final class MemoSealedColumns implements SealedColumns {
    @Override
    public List<SealedColumn> sealedColumns() {
        return List.of(
                new SealedColumn("memo_mail_accounts", "secret"),
                new SealedColumn("memo_caldav_accounts", "secret"),
                new SealedColumn("memo_oauth_grants", "client_secret"),
                new SealedColumn("memo_oauth_grants", "refresh_token"),
                new SealedColumn("memo_oauth_grants", "access_token"));
    }
}
