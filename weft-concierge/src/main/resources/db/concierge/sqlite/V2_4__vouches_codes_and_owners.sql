-- How a conversation comes to act for a customer beyond the demo's "I know the email": the storefront
-- vouched (a signed token, or a key made for one customer), or the customer said back a one-time code
-- mailed to the account's address. Both are per conversation (user, session), never per key.

-- The customer the storefront vouched for in a conversation: every later message of it must be vouched
-- for the same customer.
CREATE TABLE concierge_vouches (
    user_id    TEXT    NOT NULL,
    session_id TEXT    NOT NULL,
    email      TEXT    NOT NULL,
    source     TEXT    NOT NULL,
    vouched_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, session_id)
);

-- The one-time code a conversation is waiting for: only its SHA-256 is kept, with the tries left and
-- when it expires; text is the customer's message that asked for it, carried on once the code is right.
CREATE TABLE concierge_codes (
    user_id     TEXT    NOT NULL,
    session_id  TEXT    NOT NULL,
    customer_id TEXT    NOT NULL REFERENCES concierge_customers (id),
    code_hash   TEXT    NOT NULL,
    tries_left  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    run_id      TEXT    NOT NULL,
    text        TEXT,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (user_id, session_id)
);

-- Whose shop a row is (the API user who owns it; '' is the default shop, seen by every user who owns
-- none): one shop's key sees nothing of another's. Ids stay unique across shops.
ALTER TABLE concierge_products ADD COLUMN org TEXT NOT NULL DEFAULT '';
ALTER TABLE concierge_customers ADD COLUMN org TEXT NOT NULL DEFAULT '';
ALTER TABLE concierge_orders ADD COLUMN org TEXT NOT NULL DEFAULT '';
CREATE INDEX concierge_customers_by_org ON concierge_customers (org, email);
CREATE INDEX concierge_products_by_org ON concierge_products (org, id);
