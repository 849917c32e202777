INSERT INTO nofk.journal (run_id, events, checkpoints, steps) VALUES (:rid, :ev, :cp, :st);
