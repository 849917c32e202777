-- A calendar or mail account signed in with OAuth 2.0 (weft memo calendar|mail connect --google or
-- --microsoft): the user's own client (issuer and id; its secret, when it has one, encrypted), the
-- account signed in to, the scopes granted, the refresh token and the access token of the moment,
-- both encrypted with AES-GCM under the key kept outside the database ($WEFT_HOME/mail.key), when the
-- access token expires, and when the provider refused to refresh the grant (revoked).

CREATE TABLE memo_oauth_grants (
    user_id       TEXT    NOT NULL REFERENCES memo_users (id) ON DELETE CASCADE,
    purpose       TEXT    NOT NULL,
    provider      TEXT    NOT NULL,
    issuer        TEXT    NOT NULL,
    client_id     TEXT    NOT NULL,
    client_secret TEXT,
    account       TEXT    NOT NULL,
    scope         TEXT    NOT NULL,
    refresh_token TEXT    NOT NULL,
    access_token  TEXT    NOT NULL,
    expires_at    INTEGER NOT NULL,
    revoked_at    INTEGER,
    PRIMARY KEY (user_id, purpose)
);
