-- weft_apply (V4) without its SET search_path: a function with a SET clause saves and restores the
-- setting on every call, and changing search_path drops the backend's cached namespace path, which
-- together cost about a third of the function's own time on the server (measured with pgbench, see
-- docs/benchmarks.md). Its tables are named with the schema instead, so the function still finds
-- them whatever the caller's search_path. What it does is unchanged.

CREATE OR REPLACE FUNCTION "${flyway:defaultSchema}".weft_apply(p_run_id TEXT, p_owner TEXT, p_changes JSONB) RETURNS BOOLEAN
LANGUAGE plpgsql
AS $$
DECLARE
    v_cancel BOOLEAN;
    v_holder TEXT;
    c JSONB;
BEGIN
    -- FOR SHARE holds claims and cancel requests (UPDATEs of the row) until the transaction ends.
    SELECT cancel_requested, lease_owner INTO v_cancel, v_holder FROM "${flyway:defaultSchema}".runs WHERE id = p_run_id FOR SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'WF002', MESSAGE = p_run_id;
    END IF;
    IF v_holder IS NOT NULL AND v_holder <> p_owner THEN
        RAISE EXCEPTION USING ERRCODE = 'WF001', MESSAGE = v_holder;
    END IF;
    FOR c IN SELECT value FROM jsonb_array_elements(p_changes) LOOP
        CASE c->>'k'
        WHEN 'u' THEN
            UPDATE "${flyway:defaultSchema}".steps SET node_id = c->>'node', name = c->>'name', type = c->>'type', status = c->>'status',
                attempt = (c->>'attempt')::INTEGER, pinned = (c->>'pinned')::BOOLEAN,
                input = c->>'input', input_ref = c->>'inputRef', output = c->>'output',
                output_ref = c->>'outputRef', error_code = c->>'errorCode', error_message = c->>'errorMessage',
                started_at = (c->>'started')::BIGINT, ended_at = (c->>'ended')::BIGINT, details = c->>'details'
            WHERE run_id = coalesce(c->>'run', p_run_id) AND step_order = (c->>'order')::INTEGER
                AND strpos(c->>'expected', ',' || status || ',') > 0;
        WHEN 'i' THEN
            INSERT INTO "${flyway:defaultSchema}".steps (run_id, step_order, node_id, name, type, status, attempt, pinned, input, input_ref,
                output, output_ref, error_code, error_message, started_at, ended_at, details)
            VALUES (coalesce(c->>'run', p_run_id), (c->>'order')::INTEGER, c->>'node', c->>'name', c->>'type', c->>'status',
                (c->>'attempt')::INTEGER, (c->>'pinned')::BOOLEAN, c->>'input', c->>'inputRef', c->>'output',
                c->>'outputRef', c->>'errorCode', c->>'errorMessage', (c->>'started')::BIGINT,
                (c->>'ended')::BIGINT, c->>'details')
            ON CONFLICT (run_id, step_order) DO NOTHING;
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
            INSERT INTO "${flyway:defaultSchema}".journal (run_id, events, checkpoints)
            VALUES (coalesce(c->>'run', p_run_id), c->>'events', c->>'checkpoints');
        WHEN 'p' THEN
            INSERT INTO "${flyway:defaultSchema}".payloads (run_id, id, size, data)
            VALUES (coalesce(c->>'run', p_run_id), c->>'id', (c->>'size')::BIGINT, c->>'data')
            ON CONFLICT (run_id, id) DO NOTHING;
        END CASE;
    END LOOP;
    RETURN v_cancel;
END
$$;
