-- An inbox and an outbox for the channels (at least once in, once out). A message is kept whole in
-- channel_inbound before the channel acknowledges it (WhatsApp: before the webhook answers 200;
-- Telegram: before the update offset moves past it), and handled from there: RECEIVED until a process
-- claims it (HANDLING, under a lease), DONE once its reply is in channel_outbox. Rows from before this
-- version were handled already.
ALTER TABLE channel_inbound ADD COLUMN chat_id TEXT NOT NULL DEFAULT '';
ALTER TABLE channel_inbound ADD COLUMN sender_name TEXT NOT NULL DEFAULT '';
ALTER TABLE channel_inbound ADD COLUMN text TEXT NOT NULL DEFAULT '';
ALTER TABLE channel_inbound ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;
ALTER TABLE channel_inbound ADD COLUMN status TEXT NOT NULL DEFAULT 'DONE';
ALTER TABLE channel_inbound ADD COLUMN owner TEXT;
ALTER TABLE channel_inbound ADD COLUMN lease_until BIGINT;
ALTER TABLE channel_inbound ADD COLUMN updated_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX channel_inbound_open ON channel_inbound (channel, status, seq);
CREATE INDEX channel_inbound_age ON channel_inbound (status, updated_at);
CREATE INDEX channel_inbound_seq ON channel_inbound (seq);

-- The reply to each inbound message, keyed by it: written before it is sent, so a message handled
-- again after a crash finds its reply and never sends a second. PENDING until sent; SENDING while the
-- provider is asked; SENT once it accepted; FAILED when it refused every try; UNKNOWN when a process
-- died while asking (the provider may or may not have it: never sent again on its own).
CREATE TABLE channel_outbox (
    channel      TEXT    NOT NULL,
    message_id   TEXT    NOT NULL,
    chat_id      TEXT    NOT NULL,
    text         TEXT    NOT NULL,
    status       TEXT    NOT NULL,
    attempts     INTEGER NOT NULL,
    owner        TEXT,
    detail       TEXT    NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    PRIMARY KEY (channel, message_id)
);
CREATE INDEX channel_outbox_open ON channel_outbox (channel, status);
CREATE INDEX channel_outbox_age ON channel_outbox (status, updated_at);

-- Where each poller of a channel has read up to (Telegram's getUpdates offset), advanced only past
-- updates kept in channel_inbound.
CREATE TABLE channel_cursors (
    channel     TEXT    NOT NULL,
    account     TEXT    NOT NULL,
    position    BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (channel, account)
);

-- A notice (a reminder) for a chat is now claimed here as QUEUED and put in channel_outbox in the same
-- transaction (keyed notice:<user>:<notice id>); rows from before this version stay CLAIMED/SENT/FAILED.
