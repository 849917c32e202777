-- The journal: the events and checkpoints one transaction writes for a run, as one row, instead of
-- one row each in events and checkpoints. A step's transaction writes a handful of them, and SQLite
-- pays a statement and a b-tree page for each row (the checkpoints' index too); in one row they cost
-- that once. Nothing queries inside them: they are read back a run at a time.
--   events       a JSON array of [sequence, type, node_id, step_order, time, data], in order, or NULL
--   checkpoints  a JSON array of [after_step, next_order, time, state], in order, or NULL
-- where data and state are JSON values written exactly as the events and checkpoints tables kept
-- them. Rows are numbered per run (seq) in the order they were written, under the file's write lock.
-- Events and checkpoints written before this version stay in their tables and are read with these.

CREATE TABLE journal (
    run_id      TEXT    NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    events      TEXT,
    checkpoints TEXT,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
