-- A webhook per user: where their reminders are also sent, signed with the secret.
CREATE TABLE server_webhooks (
    user_id     TEXT    PRIMARY KEY,
    url         TEXT    NOT NULL,
    secret      TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL
);
-- One row per notification sent to a webhook, claimed before the first attempt: never sent twice.
CREATE TABLE server_webhook_deliveries (
    user_id          TEXT    NOT NULL,
    notification_id  TEXT    NOT NULL,
    status           TEXT    NOT NULL,
    attempts         INTEGER NOT NULL,
    updated_at       BIGINT  NOT NULL,
    PRIMARY KEY (user_id, notification_id)
);
