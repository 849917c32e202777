-- Workflows uploaded to weft serve, each in its user's own rows; uploading an id again replaces it.
CREATE TABLE server_workflows (
    user_id     TEXT    NOT NULL,
    id          TEXT    NOT NULL,
    definition  TEXT    NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (user_id, id)
);
