-- Seed 003's data beside the runs: organizations (the tenants), their venues with rooms and
-- bookings, the workflow templates as rows (nodes, tools, connections with handles, variables), the
-- emails each venue received (one row per venue and email: the database decides that an email starts
-- one run), and the replies to send, recorded with their Message-ID before they go out.

CREATE TABLE mailflow_organizations (
    id         TEXT    NOT NULL PRIMARY KEY,
    created_at BIGINT  NOT NULL
);

CREATE TABLE workflow_templates (
    id              TEXT    NOT NULL PRIMARY KEY,
    organization_id TEXT    NOT NULL REFERENCES mailflow_organizations (id) ON DELETE CASCADE,
    name            TEXT    NOT NULL,
    version         INTEGER NOT NULL,
    updated_at      BIGINT  NOT NULL
);

CREATE TABLE workflow_nodes (
    template_id TEXT    NOT NULL REFERENCES workflow_templates (id) ON DELETE CASCADE,
    id          TEXT    NOT NULL,
    position    INTEGER NOT NULL,
    node_type   TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    config      TEXT    NOT NULL,
    PRIMARY KEY (template_id, id)
);

CREATE TABLE workflow_tools (
    template_id TEXT    NOT NULL REFERENCES workflow_templates (id) ON DELETE CASCADE,
    id          TEXT    NOT NULL,
    position    INTEGER NOT NULL,
    tool_type   TEXT    NOT NULL,
    tool_name   TEXT    NOT NULL,
    config      TEXT    NOT NULL,
    PRIMARY KEY (template_id, id)
);

CREATE TABLE workflow_connections (
    template_id    TEXT    NOT NULL REFERENCES workflow_templates (id) ON DELETE CASCADE,
    position       INTEGER NOT NULL,
    source_node_id TEXT    NOT NULL,
    target_node_id TEXT    NOT NULL,
    source_handle  TEXT    NOT NULL,
    target_handle  TEXT    NOT NULL,
    PRIMARY KEY (template_id, position)
);

CREATE TABLE workflow_variables (
    template_id TEXT NOT NULL REFERENCES workflow_templates (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    value       TEXT NOT NULL,
    PRIMARY KEY (template_id, name)
);

CREATE TABLE mailflow_venues (
    id              TEXT    NOT NULL PRIMARY KEY,
    organization_id TEXT    NOT NULL REFERENCES mailflow_organizations (id) ON DELETE CASCADE,
    name            TEXT    NOT NULL,
    address         TEXT    NOT NULL,
    zone            TEXT    NOT NULL,
    language        TEXT    NOT NULL,
    send_mode       TEXT    NOT NULL,
    template_id     TEXT    NOT NULL REFERENCES workflow_templates (id),
    webhook_secret  TEXT    NOT NULL,
    filters         TEXT    NOT NULL,
    imap_host       TEXT,
    imap_port       INTEGER,
    smtp_host       TEXT,
    smtp_port       INTEGER,
    login           TEXT,
    security        TEXT,
    secret          TEXT,
    graph_url       TEXT,
    graph_token     TEXT,
    created_at      BIGINT  NOT NULL,
    updated_at      BIGINT  NOT NULL
);

CREATE INDEX mailflow_venues_organization ON mailflow_venues (organization_id);

CREATE TABLE mailflow_rooms (
    venue_id TEXT    NOT NULL REFERENCES mailflow_venues (id) ON DELETE CASCADE,
    name     TEXT    NOT NULL,
    capacity INTEGER NOT NULL,
    position INTEGER NOT NULL,
    PRIMARY KEY (venue_id, name)
);

CREATE TABLE mailflow_bookings (
    venue_id TEXT NOT NULL REFERENCES mailflow_venues (id) ON DELETE CASCADE,
    room     TEXT NOT NULL,
    day      TEXT NOT NULL,
    PRIMARY KEY (venue_id, room, day)
);

CREATE TABLE mailflow_emails (
    venue_id    TEXT    NOT NULL REFERENCES mailflow_venues (id) ON DELETE CASCADE,
    email_key   TEXT    NOT NULL,
    message_id  TEXT    NOT NULL,
    run_id      TEXT,
    filtered    TEXT,
    channel     TEXT    NOT NULL,
    sender      TEXT    NOT NULL,
    subject     TEXT    NOT NULL,
    received_at BIGINT  NOT NULL,
    PRIMARY KEY (venue_id, email_key)
);

CREATE INDEX mailflow_emails_run ON mailflow_emails (run_id);

CREATE TABLE mailflow_outbox (
    message_id  TEXT    NOT NULL PRIMARY KEY,
    venue_id    TEXT    NOT NULL REFERENCES mailflow_venues (id) ON DELETE CASCADE,
    run_id      TEXT    NOT NULL,
    in_reply_to TEXT    NOT NULL,
    recipient   TEXT    NOT NULL,
    subject     TEXT    NOT NULL,
    mime        TEXT    NOT NULL,
    status      TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL,
    sent_at     BIGINT
);

CREATE INDEX mailflow_outbox_run ON mailflow_outbox (run_id);
