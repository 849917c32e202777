-- API keys of weft serve: only a SHA-256 hash of each key is kept; the key itself is shown once.
CREATE TABLE server_api_keys (
    id          TEXT    PRIMARY KEY,
    user_id     TEXT    NOT NULL,
    admin       BOOLEAN NOT NULL DEFAULT FALSE,
    key_hash    TEXT    NOT NULL UNIQUE,
    created_at  BIGINT  NOT NULL,
    revoked_at  BIGINT
);
CREATE INDEX server_api_keys_user ON server_api_keys (user_id);
