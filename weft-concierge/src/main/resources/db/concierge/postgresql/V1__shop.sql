-- The concierge's tables, beside the runs in the same database: the shop (its catalog, customers,
-- orders and what was done to them) and the conversations (each API user's sessions, the identity a
-- session verified, and what the shop has learned about each customer). Money is INTEGER cents; times
-- are BIGINT milliseconds since the epoch (UTC); JSON is kept as TEXT.

CREATE TABLE concierge_products (
    id          TEXT    NOT NULL PRIMARY KEY,
    name        TEXT    NOT NULL,
    name_he     TEXT    NOT NULL,
    category    TEXT    NOT NULL,
    keywords    TEXT    NOT NULL,
    description TEXT    NOT NULL
);

-- options: a JSON object of the variant's option values ({"color": "blue", "size": "M"}).
CREATE TABLE concierge_variants (
    id          TEXT    NOT NULL PRIMARY KEY,
    product_id  TEXT    NOT NULL REFERENCES concierge_products (id),
    position    INTEGER NOT NULL,
    options     TEXT    NOT NULL,
    price_cents INTEGER NOT NULL,
    stock       INTEGER NOT NULL
);

CREATE INDEX concierge_variants_by_product ON concierge_variants (product_id, position);

-- payment: a JSON object {"kind", "label"} (the customer's method on file, copied onto each order).
CREATE TABLE concierge_customers (
    id       TEXT NOT NULL PRIMARY KEY,
    name     TEXT NOT NULL,
    email    TEXT NOT NULL UNIQUE,
    postcode TEXT NOT NULL,
    address  TEXT NOT NULL,
    payment  TEXT NOT NULL,
    language TEXT NOT NULL
);

-- status: pending, processed, delivered or cancelled.
CREATE TABLE concierge_orders (
    id            TEXT    NOT NULL PRIMARY KEY,
    customer_id   TEXT    NOT NULL REFERENCES concierge_customers (id),
    status        TEXT    NOT NULL,
    address       TEXT    NOT NULL,
    payment       TEXT    NOT NULL,
    cancel_reason TEXT,
    created_at    BIGINT  NOT NULL,
    updated_at    BIGINT  NOT NULL
);

CREATE INDEX concierge_orders_by_customer ON concierge_orders (customer_id, id);

-- One row per unit bought; position numbers the order's items from 1.
CREATE TABLE concierge_order_items (
    order_id    TEXT    NOT NULL REFERENCES concierge_orders (id),
    position    INTEGER NOT NULL,
    variant_id  TEXT    NOT NULL REFERENCES concierge_variants (id),
    price_cents INTEGER NOT NULL,
    PRIMARY KEY (order_id, position)
);

-- items: a JSON array of the order's item positions returned.
CREATE TABLE concierge_returns (
    id           TEXT    NOT NULL PRIMARY KEY,
    order_id     TEXT    NOT NULL REFERENCES concierge_orders (id),
    customer_id  TEXT    NOT NULL,
    items        TEXT    NOT NULL,
    refund_cents INTEGER NOT NULL,
    refund_to    TEXT    NOT NULL,
    reason       TEXT,
    status       TEXT    NOT NULL,
    created_at   BIGINT  NOT NULL
);

CREATE TABLE concierge_exchanges (
    id                     TEXT    NOT NULL PRIMARY KEY,
    order_id               TEXT    NOT NULL REFERENCES concierge_orders (id),
    customer_id            TEXT    NOT NULL,
    item_position          INTEGER NOT NULL,
    from_variant           TEXT    NOT NULL,
    to_variant             TEXT    NOT NULL,
    price_difference_cents INTEGER NOT NULL,
    status                 TEXT    NOT NULL,
    created_at             BIGINT  NOT NULL
);

-- Money going back to a customer: always to the payment the order was paid with.
CREATE TABLE concierge_refunds (
    id           TEXT    NOT NULL PRIMARY KEY,
    order_id     TEXT    NOT NULL REFERENCES concierge_orders (id),
    customer_id  TEXT    NOT NULL,
    amount_cents INTEGER NOT NULL,
    method       TEXT    NOT NULL,
    kind         TEXT    NOT NULL,
    created_at   BIGINT  NOT NULL
);

-- kind: ticket (for the support team) or human (a request to talk to a person).
CREATE TABLE concierge_tickets (
    id          TEXT    NOT NULL PRIMARY KEY,
    user_id     TEXT    NOT NULL,
    session_id  TEXT    NOT NULL,
    customer_id TEXT,
    order_id    TEXT,
    kind        TEXT    NOT NULL,
    subject     TEXT    NOT NULL,
    body        TEXT    NOT NULL,
    status      TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL
);

-- The customer a session verified (by email, or name and postcode): every tool that touches an account
-- reads it here, so a session acts only for the customer it verified.
CREATE TABLE concierge_identities (
    user_id     TEXT    NOT NULL,
    session_id  TEXT    NOT NULL,
    customer_id TEXT    NOT NULL REFERENCES concierge_customers (id),
    method      TEXT    NOT NULL,
    verified_at BIGINT  NOT NULL,
    PRIMARY KEY (user_id, session_id)
);

-- Each session's state (JSON, valid against state.schema.json when saved), keyed by the API user
-- first so that no statement reaches another user's sessions by id alone.
CREATE TABLE concierge_sessions (
    user_id    TEXT    NOT NULL,
    session_id TEXT    NOT NULL,
    state      TEXT    NOT NULL,
    version    INTEGER NOT NULL,
    updated_at BIGINT  NOT NULL,
    PRIMARY KEY (user_id, session_id)
);

-- What was said in each session, and the run that answered (role: customer or concierge).
CREATE TABLE concierge_messages (
    user_id    TEXT    NOT NULL,
    session_id TEXT    NOT NULL,
    seq        INTEGER NOT NULL,
    role       TEXT    NOT NULL,
    text       TEXT    NOT NULL,
    run_id     TEXT,
    at         BIGINT  NOT NULL,
    PRIMARY KEY (user_id, session_id, seq)
);

-- What the shop has learned about a customer across sessions (kind: size, preference, issue).
CREATE TABLE concierge_memory (
    customer_id TEXT    NOT NULL REFERENCES concierge_customers (id),
    kind        TEXT    NOT NULL,
    item        TEXT    NOT NULL,
    value       TEXT    NOT NULL,
    updated_at  BIGINT  NOT NULL,
    PRIMARY KEY (customer_id, kind, item)
);
