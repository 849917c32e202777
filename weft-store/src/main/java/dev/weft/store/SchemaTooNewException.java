package dev.weft.store;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;

/**
 * A store's database was migrated by a newer Weft than this process: it is not opened, since rows
 * written the newer way would be misread or overwritten by this one. The message names the database
 * (password masked), its version and the newest this build knows.
 */
public final class SchemaTooNewException extends WeftException {
    private static final long serialVersionUID = 1L;

    SchemaTooNewException(String message) {
        super(ErrorCode.E_SCHEMA_TOO_NEW, message);
    }
}
