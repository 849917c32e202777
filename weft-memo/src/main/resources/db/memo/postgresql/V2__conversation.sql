-- The conversation: each message a user sent and each reply, in order, with the run that answered.

CREATE TABLE memo_messages (
    id      BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id TEXT    NOT NULL REFERENCES memo_users (id) ON DELETE CASCADE,
    role    TEXT    NOT NULL,
    text    TEXT    NOT NULL,
    run_id  TEXT,
    at      BIGINT  NOT NULL
);

CREATE INDEX memo_messages_by_user ON memo_messages (user_id, id);
