-- The conversation: each message a user sent and each reply, in order, with the run that answered.

CREATE TABLE memo_messages (
    id      INTEGER NOT NULL PRIMARY KEY,
    user_id TEXT    NOT NULL REFERENCES memo_users (id) ON DELETE CASCADE,
    role    TEXT    NOT NULL,
    text    TEXT    NOT NULL,
    run_id  TEXT,
    at      INTEGER NOT NULL
);

CREATE INDEX memo_messages_by_user ON memo_messages (user_id, id);
