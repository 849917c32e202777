-- Weft's run store, SQLite dialect. JSON is kept as TEXT exactly as written; times are INTEGER
-- nanoseconds since the epoch (UTC), so an Instant read back equals the one written.
-- A JSON value over the payload limit is kept in payloads and its column holds NULL, with
-- *_ref naming the payload (the SHA-256 of its text).

CREATE TABLE runs (
    id               TEXT    NOT NULL PRIMARY KEY,
    graph_id         TEXT    NOT NULL,
    parent_run_id    TEXT,
    status           TEXT    NOT NULL,
    input            TEXT,
    input_ref        TEXT,
    variables        TEXT    NOT NULL,
    pins             TEXT    NOT NULL,
    output           TEXT,
    output_ref       TEXT,
    error_code       TEXT,
    error_message    TEXT,
    created_at       INTEGER NOT NULL,
    ended_at         INTEGER,
    source           TEXT    NOT NULL,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    lease_owner      TEXT,
    lease_until      INTEGER
);

CREATE INDEX runs_by_created ON runs (created_at DESC, id);
CREATE INDEX runs_by_status ON runs (status, created_at);
CREATE INDEX runs_by_lease_owner ON runs (lease_owner);
CREATE INDEX runs_by_ended ON runs (ended_at);

CREATE TABLE steps (
    run_id        TEXT    NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    step_order    INTEGER NOT NULL,
    node_id       TEXT    NOT NULL,
    name          TEXT    NOT NULL,
    type          TEXT    NOT NULL,
    status        TEXT    NOT NULL,
    attempt       INTEGER NOT NULL,
    pinned        INTEGER NOT NULL,
    input         TEXT,
    input_ref     TEXT,
    output        TEXT,
    output_ref    TEXT,
    error_code    TEXT,
    error_message TEXT,
    started_at    INTEGER,
    ended_at      INTEGER,
    details       TEXT    NOT NULL,
    PRIMARY KEY (run_id, step_order)
) WITHOUT ROWID;

CREATE TABLE events (
    run_id     TEXT    NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    sequence   INTEGER NOT NULL,
    type       TEXT    NOT NULL,
    node_id    TEXT,
    step_order INTEGER NOT NULL,
    time       INTEGER NOT NULL,
    data       TEXT    NOT NULL,
    PRIMARY KEY (run_id, sequence)
) WITHOUT ROWID;

-- Every checkpoint is kept: forks and time travel start from older ones.
CREATE TABLE checkpoints (
    id         INTEGER NOT NULL PRIMARY KEY,
    run_id     TEXT    NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    after_step INTEGER NOT NULL,
    next_order INTEGER NOT NULL,
    time       INTEGER NOT NULL,
    state      TEXT    NOT NULL
);

CREATE INDEX checkpoints_by_run ON checkpoints (run_id, id);

-- Values over the payload limit, once per run and content.
CREATE TABLE payloads (
    run_id TEXT    NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    id     TEXT    NOT NULL,
    size   INTEGER NOT NULL,
    data   TEXT    NOT NULL,
    PRIMARY KEY (run_id, id)
);

CREATE TABLE idempotency (
    key        TEXT    NOT NULL PRIMARY KEY,
    result     TEXT    NOT NULL,
    created_at INTEGER NOT NULL
);
