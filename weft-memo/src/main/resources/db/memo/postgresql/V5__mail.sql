-- Each user's mail account (IMAP and SMTP), its secret (a password or an OAuth2 access token)
-- encrypted with AES-GCM under a key kept outside the database ($WEFT_HOME/mail.key), and the
-- messages Memo sent, by the Message-ID it gave them, so that a retried send never sends twice.

CREATE TABLE memo_mail_accounts (
    user_id    TEXT    NOT NULL PRIMARY KEY REFERENCES memo_users (id) ON DELETE CASCADE,
    address    TEXT    NOT NULL,
    imap_host  TEXT    NOT NULL,
    imap_port  INTEGER NOT NULL,
    smtp_host  TEXT    NOT NULL,
    smtp_port  INTEGER NOT NULL,
    login      TEXT    NOT NULL,
    security   TEXT    NOT NULL,
    auth       TEXT    NOT NULL,
    secret     TEXT    NOT NULL,
    created_at BIGINT  NOT NULL
);

CREATE TABLE memo_mail_sent (
    user_id    TEXT    NOT NULL REFERENCES memo_users (id) ON DELETE CASCADE,
    message_id TEXT    NOT NULL,
    sent_at    BIGINT  NOT NULL,
    PRIMARY KEY (user_id, message_id)
);
