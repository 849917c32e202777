-- MCP servers registered with 'weft mcp add': their tools become plan tools and the mcp node type's.
CREATE TABLE mcp_servers (
    name        TEXT    PRIMARY KEY,
    command     TEXT,
    url         TEXT,
    created_at  INTEGER NOT NULL
);
