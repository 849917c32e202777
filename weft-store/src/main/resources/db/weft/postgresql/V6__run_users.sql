-- Whose run it is, as SQLite's V4: the user (tenant) a run was started for, NULL for a run of nobody
-- in particular. An assistant lists a user's runs by it, newest first.

ALTER TABLE runs ADD COLUMN user_id TEXT;

CREATE INDEX runs_by_user ON runs (user_id, created_at) WHERE user_id IS NOT NULL;
