-- Fewer index entries per run, as SQLite's V3. Every index of runs costs each new run its entry, and
-- three served little: runs are listed whole (sorting them costs less than the entries did), pruning
-- finds finished runs through runs_by_status and their creation time (a run ends after it starts),
-- and only runs that have not finished renew their lease, so the lease index keeps those alone. A run
-- inserted as it ended (a run created by its writer) now writes no entry of that index at all.

DROP INDEX runs_by_created;
DROP INDEX runs_by_ended;
DROP INDEX runs_by_lease_owner;
CREATE INDEX runs_by_lease_owner ON runs (lease_owner) WHERE status IN ('PENDING', 'RUNNING', 'WAITING');
