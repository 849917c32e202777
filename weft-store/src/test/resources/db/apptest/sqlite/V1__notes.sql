CREATE TABLE apptest_notes (
    user_id TEXT NOT NULL,
    id      TEXT NOT NULL,
    text    TEXT NOT NULL,
    PRIMARY KEY (user_id, id)
);
