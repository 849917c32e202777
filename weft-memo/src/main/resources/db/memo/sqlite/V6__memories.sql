-- The second brain (seed 002's memoryOperations): each user's memories, with their tags, project
-- and time, the vector of their content under the embedding model that made it (little-endian
-- float32, unit length; NULL until it is made), and a full-text index of their words.

CREATE TABLE memo_memories (
    user_id         TEXT    NOT NULL REFERENCES memo_users (id) ON DELETE CASCADE,
    id              TEXT    NOT NULL,
    content         TEXT    NOT NULL,
    tags            TEXT    NOT NULL,
    project         TEXT,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    embedding_model TEXT,
    embedding       BLOB,
    PRIMARY KEY (user_id, id)
);

CREATE INDEX memo_memories_by_time ON memo_memories (user_id, created_at);
-- A number that grows with every change to a user's memories or their vectors, so that a process
-- keeping a user's vectors in memory knows, with one lookup, when to read them again.
CREATE TABLE memo_memory_versions (
    user_id TEXT    NOT NULL PRIMARY KEY REFERENCES memo_users (id) ON DELETE CASCADE,
    version INTEGER NOT NULL
);

-- A search first looks for memories with no vector of its model: an index lookup, not a scan.
CREATE INDEX memo_memories_by_model ON memo_memories (user_id, embedding_model);

-- owner is one token made from the user's id, so a search reads only that user's postings; terms
-- are SearchTerms.indexed(content and tags): folded words, Hebrew words also without their prefixes.
CREATE VIRTUAL TABLE memo_memories_fts USING fts5 (
    owner,
    memory_id UNINDEXED,
    terms,
    tokenize = 'porter unicode61 remove_diacritics 2'
);
