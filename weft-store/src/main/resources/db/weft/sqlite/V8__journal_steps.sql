-- One row a step: the journal row a transaction writes carries its step changes too, and from this
-- version on no step is written to the steps table. A run's steps are then one ordered log: the
-- table's rows (written before this version), then the changes of its journal rows by seq, each row's
-- in order. A reader folds them with the rule the writes used to apply at once (JdbcRunStore.steps).
--   steps  a JSON array of step changes, in order, or NULL: {"k":"i", …} inserts the step unless it
--          exists; {"k":"u", …, "expected": ",A,B,"} replaces it if its status is one of those. Each
--          holds every column of a step row (PostgresBatch's objects).
-- A process older than this version writes steps to the table after newer journal rows, where a
-- reader would fold them first: it must not share a database migrated to it, and a store refuses to
-- open a schema newer than it knows (E_SCHEMA_TOO_NEW).

ALTER TABLE journal ADD COLUMN steps TEXT;
