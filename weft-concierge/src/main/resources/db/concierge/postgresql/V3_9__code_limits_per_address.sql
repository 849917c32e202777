-- Every one-time code asked for an address, and every wrong code said back for one, whatever the
-- conversation: a stranger opening conversation after conversation cannot mail a customer's address
-- without end, nor guess without end (OneTimeCodes' limits per address). address is the email lower-cased
-- (for a name and postcode that match nobody, 'name:' with them), so an address on no account is limited
-- the same way and nobody learns from the limit whether it is on one. kind is SENT (a code mailed, or
-- asked for an address on no account) or WRONG (a wrong code said back), in conversation (user_id,
-- session_id). Rows older than a day are deleted as new ones come.
CREATE TABLE concierge_code_events (
    address    TEXT    NOT NULL,
    kind       TEXT    NOT NULL,
    user_id    TEXT    NOT NULL,
    session_id TEXT    NOT NULL,
    at         BIGINT  NOT NULL
);
CREATE INDEX concierge_code_events_by_address ON concierge_code_events (address, kind, at);
