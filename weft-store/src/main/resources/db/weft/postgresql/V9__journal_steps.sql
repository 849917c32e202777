-- One row a durable step, as SQLite's V8: the journal row a transaction writes carries its step
-- changes too, and from this version on no step is written to the steps table. A run's steps are one
-- ordered log: the table's rows (written before this version), then the changes of its journal rows
-- by seq, each row's in order, folded with the rule the table's statements applied (JdbcRunStore.steps).
--   steps  a JSON array of step changes, in order, or NULL: {"k":"i", …} inserts the step unless it
--          exists; {"k":"u", …, "expected": ",A,B,"} replaces it if its status is one of those. Each
--          holds every column of a step row (PostgresBatch's objects).
-- seq is one identity for all runs, so a run's seq order is its commit order only if its writers
-- take turns: every write of step changes first locks the run's row FOR NO KEY UPDATE (weft_apply
-- below, the client's one-statement step and its transactions), where FOR SHARE let two share it.
-- weft_apply's "j" takes the steps text; an "i" or "u" sent by itself becomes a journal row of one
-- change. A process older than this version writes steps to the table after newer journal rows,
-- where a reader would fold them first: it must not share a database migrated to it, and a store
-- refuses to open a schema newer than it knows (E_SCHEMA_TOO_NEW).

ALTER TABLE "${flyway:defaultSchema}".journal ADD COLUMN steps TEXT;

CREATE OR REPLACE FUNCTION "${flyway:defaultSchema}".weft_apply(p_run_id TEXT, p_owner TEXT, p_changes JSONB) RETURNS BOOLEAN
LANGUAGE plpgsql
AS $$
DECLARE
    v_cancel BOOLEAN;
    v_holder TEXT;
    c JSONB;
BEGIN
    -- FOR NO KEY UPDATE holds claims and cancel requests (UPDATEs of the row) until the transaction
    -- ends, and one writer of the run's journal at a time: its seq order is then its commit order.
    SELECT cancel_requested, lease_owner INTO v_cancel, v_holder FROM "${flyway:defaultSchema}".runs WHERE id = p_run_id FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'WF002', MESSAGE = p_run_id;
    END IF;
    IF v_holder IS NOT NULL AND v_holder <> p_owner THEN
        RAISE EXCEPTION USING ERRCODE = 'WF001', MESSAGE = v_holder;
    END IF;
    FOR c IN SELECT value FROM jsonb_array_elements(p_changes) LOOP
        CASE c->>'k'
        WHEN 'u', 'i' THEN
            -- A step change the client sent by itself rather than in its journal row: a row of its own.
            IF c ? 'run' THEN
                -- Another run's steps: its writers take turns with this one too.
                PERFORM FROM "${flyway:defaultSchema}".runs WHERE id = c->>'run' FOR NO KEY UPDATE;
            END IF;
            INSERT INTO "${flyway:defaultSchema}".journal (run_id, steps)
            VALUES (coalesce(c->>'run', p_run_id), jsonb_build_array(c - 'run')::TEXT);
        WHEN 'e' THEN
            INSERT INTO "${flyway:defaultSchema}".events (run_id, sequence, type, node_id, step_order, time, data)
            VALUES (coalesce(c->>'run', p_run_id), (c->>'sequence')::BIGINT, c->>'type', c->>'node', (c->>'step')::INTEGER,
                (c->>'time')::BIGINT, c->>'data');
        WHEN 'c' THEN
            INSERT INTO "${flyway:defaultSchema}".checkpoints (run_id, after_step, next_order, time, state)
            VALUES (coalesce(c->>'run', p_run_id), (c->>'after')::INTEGER, (c->>'next')::INTEGER, (c->>'time')::BIGINT, c->>'state');
        WHEN 'r' THEN
            UPDATE "${flyway:defaultSchema}".runs SET status = c->>'status', output = c->>'output', output_ref = c->>'outputRef',
                error_code = c->>'errorCode', error_message = c->>'errorMessage', ended_at = (c->>'ended')::BIGINT
            WHERE id = p_run_id AND strpos(c->>'expected', ',' || status || ',') > 0;
            IF NOT FOUND THEN
                RAISE EXCEPTION USING ERRCODE = 'WF003', MESSAGE = p_run_id;
            END IF;
        WHEN 'j' THEN
            IF c ? 'steps' AND c ? 'run' THEN
                PERFORM FROM "${flyway:defaultSchema}".runs WHERE id = c->>'run' FOR NO KEY UPDATE;
            END IF;
            INSERT INTO "${flyway:defaultSchema}".journal (run_id, events, checkpoints, steps)
            VALUES (coalesce(c->>'run', p_run_id), c->>'events', c->>'checkpoints', c->>'steps');
        WHEN 'p' THEN
            INSERT INTO "${flyway:defaultSchema}".payloads (run_id, id, size, data)
            VALUES (coalesce(c->>'run', p_run_id), c->>'id', (c->>'size')::BIGINT, c->>'data')
            ON CONFLICT (run_id, id) DO NOTHING;
        END CASE;
    END LOOP;
    RETURN v_cancel;
END
$$;
