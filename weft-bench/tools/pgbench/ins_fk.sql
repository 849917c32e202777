INSERT INTO weft.journal (run_id, events, checkpoints, steps) VALUES (:rid, :ev, :cp, :st);
