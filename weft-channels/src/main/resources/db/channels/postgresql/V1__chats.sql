-- Chats of the messaging channels: each approved chat talks to one assistant as one user.
CREATE TABLE channel_chats (
    channel       TEXT    NOT NULL,
    chat_id       TEXT    NOT NULL,
    user_id       TEXT    NOT NULL,
    assistant     TEXT    NOT NULL,
    paired_at     BIGINT NOT NULL,
    last_seen_at  BIGINT NOT NULL,
    PRIMARY KEY (channel, chat_id)
);
CREATE INDEX channel_chats_user ON channel_chats (user_id);
-- A code an unknown chat was given; the owner approves it with 'weft channels approve CODE'.
CREATE TABLE channel_pairings (
    code        TEXT    PRIMARY KEY,
    channel     TEXT    NOT NULL,
    chat_id     TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL,
    UNIQUE (channel, chat_id)
);
-- Every message a channel was handed, by its id there: a duplicate delivery is handled once.
CREATE TABLE channel_inbound (
    channel      TEXT    NOT NULL,
    message_id   TEXT    NOT NULL,
    received_at  BIGINT NOT NULL,
    PRIMARY KEY (channel, message_id)
);
-- What a chat's messages made or changed (a task, an event), so its reminders go back to that chat.
CREATE TABLE channel_subjects (
    user_id     TEXT    NOT NULL,
    subject_id  TEXT    NOT NULL,
    channel     TEXT    NOT NULL,
    chat_id     TEXT    NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (user_id, subject_id)
);
-- Each notice claimed for one chat before it is sent: never sent twice, by any process.
CREATE TABLE channel_deliveries (
    user_id     TEXT    NOT NULL,
    notice_id   TEXT    NOT NULL,
    channel     TEXT    NOT NULL,
    chat_id     TEXT    NOT NULL,
    status      TEXT    NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (user_id, notice_id)
);
