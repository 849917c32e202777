-- The second brain (seed 002's memoryOperations): each user's memories, with their tags, project
-- and time, the vector of their content under the embedding model that made it (little-endian
-- float32, unit length; NULL until it is made), and a full-text index of their words
-- (SearchTerms.indexed: folded words, Hebrew words also without their prefixes; English stemmed by
-- the english configuration).

CREATE TABLE memo_memories (
    user_id         TEXT    NOT NULL REFERENCES memo_users (id) ON DELETE CASCADE,
    id              TEXT    NOT NULL,
    content         TEXT    NOT NULL,
    tags            TEXT    NOT NULL,
    project         TEXT,
    created_at      BIGINT  NOT NULL,
    updated_at      BIGINT  NOT NULL,
    embedding_model TEXT,
    embedding       BYTEA,
    terms           TEXT    NOT NULL,
    search          TSVECTOR GENERATED ALWAYS AS (to_tsvector('english', terms)) STORED,
    PRIMARY KEY (user_id, id)
);

CREATE INDEX memo_memories_by_time ON memo_memories (user_id, created_at);
-- A number that grows with every change to a user's memories or their vectors, so that a process
-- keeping a user's vectors in memory knows, with one lookup, when to read them again.
CREATE TABLE memo_memory_versions (
    user_id TEXT    NOT NULL PRIMARY KEY REFERENCES memo_users (id) ON DELETE CASCADE,
    version BIGINT NOT NULL
);

-- A search first looks for memories with no vector of its model: an index lookup, not a scan.
CREATE INDEX memo_memories_by_model ON memo_memories (user_id, embedding_model);
CREATE INDEX memo_memories_search ON memo_memories USING GIN (search);
