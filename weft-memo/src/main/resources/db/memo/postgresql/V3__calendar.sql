-- The calendar (seed 002's calendarOperations). start_at and end_at are the first occurrence, end
-- exclusive; an all-day event runs from the start of its first day to the start of the day after its
-- last, in time_zone, the zone its recurrence and its days are read in. recurrence is an RFC 5545
-- RRULE value, exdates the days it skips (a JSON array of YYYY-MM-DD); attendees a JSON array.

CREATE TABLE memo_events (
    user_id          TEXT    NOT NULL REFERENCES memo_users (id) ON DELETE CASCADE,
    id               TEXT    NOT NULL,
    summary          TEXT    NOT NULL,
    start_at         BIGINT  NOT NULL,
    end_at           BIGINT  NOT NULL,
    all_day          BOOLEAN NOT NULL,
    time_zone        TEXT    NOT NULL,
    description      TEXT,
    location         TEXT,
    attendees        TEXT    NOT NULL,
    reminder_minutes INTEGER,
    recurrence       TEXT,
    exdates          TEXT    NOT NULL,
    created_at       BIGINT  NOT NULL,
    updated_at       BIGINT  NOT NULL,
    PRIMARY KEY (user_id, id)
);

CREATE INDEX memo_events_by_start ON memo_events (user_id, start_at);
