-- The Microsoft 365 sign-in of a venue's Outlook mailbox ('weft mailflow venue connect VENUE --microsoft'):
-- one grant per venue, its refresh and access tokens (and the client's secret) sealed with mail.key.
-- revoked_at is set when the provider refused a refresh: replies then fail with E_AUTH_REVOKED.

CREATE TABLE mailflow_venue_grants (
    venue_id      TEXT    NOT NULL PRIMARY KEY REFERENCES mailflow_venues (id) ON DELETE CASCADE,
    provider      TEXT    NOT NULL,
    issuer        TEXT    NOT NULL,
    client_id     TEXT    NOT NULL,
    client_secret TEXT,
    account       TEXT    NOT NULL,
    scope         TEXT    NOT NULL,
    refresh_token TEXT    NOT NULL,
    access_token  TEXT    NOT NULL,
    expires_at    BIGINT  NOT NULL,
    revoked_at    BIGINT,
    connected_at  BIGINT  NOT NULL
);
