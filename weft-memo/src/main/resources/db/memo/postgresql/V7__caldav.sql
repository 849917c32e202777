-- Each user's connection to a CalDAV calendar (RFC 4791) and what was last synced with it.
-- memo_caldav_accounts: the server the user gave, the calendar collection found there, the login, how
-- the secret is used (PASSWORD or OAUTH2) and the secret itself, encrypted with AES-GCM under the key
-- kept outside the database ($WEFT_HOME/mail.key); the server's sync-token (RFC 6578) after the last
-- sync, when it has them. memo_caldav_objects: each calendar object (one .ics resource: an event and
-- the changed occurrences of its series) as last synced, its ETag and its text, so that a change made
-- in Memo is written over the server's own text and keeps what Memo does not model.
-- memo_caldav_events: which Memo event each object gave (the series itself, or one occurrence of it
-- changed on the server: recurrence_id), and a fingerprint of the event as last synced, to tell a
-- change made in Memo since.

CREATE TABLE memo_caldav_accounts (
    user_id       TEXT    NOT NULL PRIMARY KEY REFERENCES memo_users (id) ON DELETE CASCADE,
    server_url    TEXT    NOT NULL,
    calendar_url  TEXT    NOT NULL,
    calendar_name TEXT    NOT NULL,
    login         TEXT    NOT NULL,
    auth          TEXT    NOT NULL,
    secret        TEXT    NOT NULL,
    sync_token    TEXT,
    created_at    BIGINT  NOT NULL,
    synced_at     BIGINT,
    last_error    TEXT
);

CREATE TABLE memo_caldav_objects (
    user_id TEXT NOT NULL REFERENCES memo_users (id) ON DELETE CASCADE,
    href    TEXT NOT NULL,
    etag    TEXT,
    ics     TEXT NOT NULL,
    PRIMARY KEY (user_id, href)
);

CREATE TABLE memo_caldav_events (
    user_id       TEXT NOT NULL REFERENCES memo_users (id) ON DELETE CASCADE,
    event_id      TEXT NOT NULL,
    href          TEXT NOT NULL,
    recurrence_id TEXT,
    fingerprint   TEXT NOT NULL,
    PRIMARY KEY (user_id, event_id)
);

CREATE INDEX memo_caldav_events_by_href ON memo_caldav_events (user_id, href);
