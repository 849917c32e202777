-- Memo's own tables, beside the runs in the same database. Every row belongs to a user, and every
-- key starts with the user's id, so that no statement can reach another user's rows by id alone.
-- Times are BIGINT milliseconds since the epoch (UTC); JSON is kept as TEXT.

CREATE TABLE memo_users (
    id         TEXT    NOT NULL PRIMARY KEY,
    language   TEXT    NOT NULL,
    time_zone  TEXT    NOT NULL,
    created_at BIGINT  NOT NULL
);

-- Tasks and reminders (seed 002's taskOperations). due_at is the instant due_text names; a date
-- without a time (an all-day task) is due at the start of that day in the user's zone.
CREATE TABLE memo_tasks (
    user_id             TEXT    NOT NULL REFERENCES memo_users (id) ON DELETE CASCADE,
    id                  TEXT    NOT NULL,
    parent_id           TEXT,
    text                TEXT    NOT NULL,
    category            TEXT,
    due_at              BIGINT,
    due_text            TEXT,
    reminder            TEXT,
    reminder_recurrence TEXT,
    reminder_details    TEXT,
    completed           BOOLEAN NOT NULL,
    created_at          BIGINT  NOT NULL,
    updated_at          BIGINT  NOT NULL,
    PRIMARY KEY (user_id, id)
);

CREATE INDEX memo_tasks_by_due ON memo_tasks (user_id, due_at);

-- Lists and notes (seed 002's listOperations); items are a JSON array of {"text", "checked"}.
CREATE TABLE memo_lists (
    user_id      TEXT    NOT NULL REFERENCES memo_users (id) ON DELETE CASCADE,
    id           TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    is_checklist BOOLEAN NOT NULL,
    content      TEXT,
    items        TEXT    NOT NULL,
    created_at   BIGINT  NOT NULL,
    updated_at   BIGINT  NOT NULL,
    PRIMARY KEY (user_id, id)
);
