-- Housekeeping: weft_scheduled_tasks is db-scheduler's table (its sqlite schema, under Weft's name),
-- holding the one recurring task that prunes what grows with traffic and is kept only for a while
-- (idempotency rows of finished runs, webhook deliveries that are done): several servers on one
-- database run it once per period between them. The index lets the pruning find old idempotency rows
-- without reading the whole table.

CREATE TABLE weft_scheduled_tasks (
    task_name            TEXT     NOT NULL,
    task_instance        TEXT     NOT NULL,
    task_data            BLOB,
    execution_time       TIMESTAMP NOT NULL,
    picked               BIT      NOT NULL,
    picked_by            TEXT,
    last_success         TIMESTAMP,
    last_failure         TIMESTAMP,
    consecutive_failures INT,
    last_heartbeat       TIMESTAMP,
    version              BIGINT   NOT NULL,
    priority             SMALLINT,
    PRIMARY KEY (task_name, task_instance)
);

CREATE INDEX weft_scheduled_tasks_by_time ON weft_scheduled_tasks (execution_time);
CREATE INDEX weft_scheduled_tasks_by_heartbeat ON weft_scheduled_tasks (last_heartbeat);
CREATE INDEX weft_scheduled_tasks_by_priority ON weft_scheduled_tasks (priority DESC, execution_time ASC);

CREATE INDEX idempotency_by_age ON idempotency (created_at);
