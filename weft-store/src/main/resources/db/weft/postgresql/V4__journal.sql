-- The journal: the events and checkpoints one transaction writes for a run, as one row, instead of
-- one row each in events and checkpoints (as SQLite's V2). Nothing queries inside them: they are
-- read back a run at a time.
--   events       a JSON array of [sequence, type, node_id, step_order, time, data], in order, or NULL
--   checkpoints  a JSON array of [after_step, next_order, time, state], in order, or NULL
-- where data and state are JSON values written exactly as the events and checkpoints tables kept
-- them. seq orders a run's rows as they were written (a run has one writer at a time, its lease
-- holder). Events and checkpoints written before this version stay in their tables and are read
-- with these.
-- weft_apply takes one more kind of change, which the client now sends instead of "e" and "c":
--   {"k":"j", "events", "checkpoints"}                   a journal row; either text may be null
-- The other kinds are as in V3.

CREATE TABLE journal (
    run_id      TEXT   NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq         BIGINT GENERATED ALWAYS AS IDENTITY,
    events      TEXT,
    checkpoints TEXT,
    PRIMARY KEY (run_id, seq)
);

CREATE OR REPLACE FUNCTION weft_apply(p_run_id TEXT, p_owner TEXT, p_changes JSONB) RETURNS BOOLEAN
LANGUAGE plpgsql
SET search_path FROM CURRENT
AS $$
DECLARE
    v_cancel BOOLEAN;
    v_holder TEXT;
    c JSONB;
BEGIN
    -- FOR SHARE holds claims and cancel requests (UPDATEs of the row) until the transaction ends.
    SELECT cancel_requested, lease_owner INTO v_cancel, v_holder FROM runs WHERE id = p_run_id FOR SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'WF002', MESSAGE = p_run_id;
    END IF;
    IF v_holder IS NOT NULL AND v_holder <> p_owner THEN
        RAISE EXCEPTION USING ERRCODE = 'WF001', MESSAGE = v_holder;
    END IF;
    FOR c IN SELECT value FROM jsonb_array_elements(p_changes) LOOP
        CASE c->>'k'
        WHEN 'u' THEN
            UPDATE steps SET node_id = c->>'node', name = c->>'name', type = c->>'type', status = c->>'status',
                attempt = (c->>'attempt')::INTEGER, pinned = (c->>'pinned')::BOOLEAN,
                input = c->>'input', input_ref = c->>'inputRef', output = c->>'output',
                output_ref = c->>'outputRef', error_code = c->>'errorCode', error_message = c->>'errorMessage',
                started_at = (c->>'started')::BIGINT, ended_at = (c->>'ended')::BIGINT, details = c->>'details'
            WHERE run_id = coalesce(c->>'run', p_run_id) AND step_order = (c->>'order')::INTEGER
                AND strpos(c->>'expected', ',' || status || ',') > 0;
        WHEN 'i' THEN
            INSERT INTO steps (run_id, step_order, node_id, name, type, status, attempt, pinned, input, input_ref,
                output, output_ref, error_code, error_message, started_at, ended_at, details)
            VALUES (coalesce(c->>'run', p_run_id), (c->>'order')::INTEGER, c->>'node', c->>'name', c->>'type', c->>'status',
                (c->>'attempt')::INTEGER, (c->>'pinned')::BOOLEAN, c->>'input', c->>'inputRef', c->>'output',
                c->>'outputRef', c->>'errorCode', c->>'errorMessage', (c->>'started')::BIGINT,
                (c->>'ended')::BIGINT, c->>'details')
            ON CONFLICT (run_id, step_order) DO NOTHING;
        WHEN 'e' THEN
            INSERT INTO events (run_id, sequence, type, node_id, step_order, time, data)
            VALUES (coalesce(c->>'run', p_run_id), (c->>'sequence')::BIGINT, c->>'type', c->>'node', (c->>'step')::INTEGER,
                (c->>'time')::BIGINT, c->>'data');
        WHEN 'c' THEN
            INSERT INTO checkpoints (run_id, after_step, next_order, time, state)
            VALUES (coalesce(c->>'run', p_run_id), (c->>'after')::INTEGER, (c->>'next')::INTEGER, (c->>'time')::BIGINT, c->>'state');
        WHEN 'r' THEN
            UPDATE runs SET status = c->>'status', output = c->>'output', output_ref = c->>'outputRef',
                error_code = c->>'errorCode', error_message = c->>'errorMessage', ended_at = (c->>'ended')::BIGINT
            WHERE id = p_run_id AND strpos(c->>'expected', ',' || status || ',') > 0;
            IF NOT FOUND THEN
                RAISE EXCEPTION USING ERRCODE = 'WF003', MESSAGE = p_run_id;
            END IF;
        WHEN 'j' THEN
            INSERT INTO journal (run_id, events, checkpoints)
            VALUES (coalesce(c->>'run', p_run_id), c->>'events', c->>'checkpoints');
        WHEN 'p' THEN
            INSERT INTO payloads (run_id, id, size, data)
            VALUES (coalesce(c->>'run', p_run_id), c->>'id', (c->>'size')::BIGINT, c->>'data')
            ON CONFLICT (run_id, id) DO NOTHING;
        END CASE;
    END LOOP;
    RETURN v_cancel;
END
$$;
