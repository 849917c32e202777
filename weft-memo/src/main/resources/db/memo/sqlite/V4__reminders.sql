-- Reminders that fire on time. memo_scheduled_tasks is db-scheduler's table (its SQLite schema, under
-- Memo's name): one row per reminder waiting for its next time. memo_notifications holds what fired,
-- addressed to its user, once per reminder and time (the key), whether it fired late, and whether a
-- client has shown it yet.

CREATE TABLE memo_scheduled_tasks (
    task_name            TEXT     NOT NULL,
    task_instance        TEXT     NOT NULL,
    task_data            BLOB,
    execution_time       TIMESTAMP NOT NULL,
    picked               BIT      NOT NULL,
    picked_by            TEXT,
    last_success         TIMESTAMP,
    last_failure         TIMESTAMP,
    consecutive_failures INT,
    last_heartbeat       TIMESTAMP,
    version              BIGINT   NOT NULL,
    priority             SMALLINT,
    PRIMARY KEY (task_name, task_instance)
);

CREATE INDEX memo_scheduled_tasks_by_time ON memo_scheduled_tasks (execution_time);
CREATE INDEX memo_scheduled_tasks_by_heartbeat ON memo_scheduled_tasks (last_heartbeat);
CREATE INDEX memo_scheduled_tasks_by_priority ON memo_scheduled_tasks (priority DESC, execution_time ASC);

CREATE TABLE memo_notifications (
    user_id      TEXT    NOT NULL REFERENCES memo_users (id) ON DELETE CASCADE,
    id           TEXT    NOT NULL,
    type         TEXT    NOT NULL,
    source       TEXT    NOT NULL,
    source_id    TEXT    NOT NULL,
    text         TEXT    NOT NULL,
    due_at       INTEGER NOT NULL,
    fired_at     INTEGER NOT NULL,
    late         INTEGER NOT NULL,
    delivered_at INTEGER,
    PRIMARY KEY (user_id, id)
);

CREATE INDEX memo_notifications_pending ON memo_notifications (user_id, delivered_at, fired_at);
