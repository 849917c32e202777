-- For step-parts.sh: a run held by 'me' in a schema `weft` migrated by Weft (open a store on
-- currentSchema=weft once), and a copy of its journal without the foreign key to runs.
INSERT INTO weft.runs (id, graph_id, status, variables, pins, created_at, source, lease_owner, lease_until)
VALUES ('r1', 'g', 'RUNNING', '{}', '{}', 1, '{}', 'me', 1) ON CONFLICT DO NOTHING;
CREATE SCHEMA IF NOT EXISTS nofk;
CREATE TABLE IF NOT EXISTS nofk.journal (LIKE weft.journal INCLUDING ALL);
CREATE TABLE IF NOT EXISTS nofk.floor_rows (run_id TEXT NOT NULL, step BIGINT NOT NULL, state TEXT NOT NULL, PRIMARY KEY (run_id, step));
