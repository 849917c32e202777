\set n random(1, 9000000000000000)
INSERT INTO nofk.floor_rows (run_id, step, state) VALUES (:rid, :n, :small);
