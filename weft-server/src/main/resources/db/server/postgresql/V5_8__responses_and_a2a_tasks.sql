-- The Responses API's responses (/v1/responses), each its user's: the response as it was served, and
-- the conversation (session) a response that names it as its previous_response_id continues.
CREATE TABLE server_responses (
    id          TEXT    NOT NULL PRIMARY KEY,
    user_id     TEXT    NOT NULL,
    model       TEXT    NOT NULL,
    session     TEXT    NOT NULL,
    body        TEXT    NOT NULL,
    created_at  BIGINT  NOT NULL
);

-- A2A tasks (/a2a/{name}): a task is one of an assistant's runs, its id the run's; the row keeps whose it
-- is, the assistant, the A2A context (the conversation) and the messages exchanged on it.
CREATE TABLE server_a2a_tasks (
    id          TEXT    NOT NULL PRIMARY KEY,
    user_id     TEXT    NOT NULL,
    assistant   TEXT    NOT NULL,
    context_id  TEXT    NOT NULL,
    history     TEXT    NOT NULL,
    updated_at  BIGINT  NOT NULL
);
