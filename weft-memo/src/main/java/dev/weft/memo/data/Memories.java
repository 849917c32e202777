package dev.weft.memo.data;

import dev.weft.core.Json;
import dev.weft.store.AppDatabase;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;

/**
 * The rows of {@code memo_memories}, always of one user: the memories, their full-text index
 * (SQLite's FTS5, PostgreSQL's {@code tsvector}) and their vectors. Thread-safe; the {@code
 * Connection} methods run inside the caller's transaction.
 */
public final class Memories {
    private static final String COLUMNS = "id, content, tags, project, created_at, updated_at";

    /** A memory's place in a ranking: its id and the score that put it there (higher is better). */
    public record Ranked(String id, double score) {}

    /** A memory whose vector is missing or was made by another model. */
    public record Unembedded(String id, String text) {}

    private final AppDatabase db;

    Memories(AppDatabase db) {
        this.db = db;
    }

    AppDatabase db() {
        return db;
    }

    private boolean sqlite() {
        return db.dialect() == AppDatabase.Dialect.SQLITE;
    }

    /** Every memory of {@code user}, oldest first. */
    public List<Memory> all(String user) {
        return db.read("read the memories of " + user, c -> all(c, user));
    }

    static List<Memory> all(Connection connection, String user) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT " + COLUMNS + " FROM memo_memories WHERE user_id = ? ORDER BY created_at, id")) {
            select.setString(1, user);
            return read(select);
        }
    }

    /** How many memories {@code user} has. */
    public int count(String user) {
        return db.read("count the memories of " + user, c -> {
            try (PreparedStatement select =
                    c.prepareStatement("SELECT COUNT(*) FROM memo_memories WHERE user_id = ?")) {
                select.setString(1, user);
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    return row.getInt(1);
                }
            }
        });
    }

    /** The memories of {@code user} with these ids, in the order of {@code ids}; ids they do not have are left out. */
    List<Memory> byIds(Connection connection, String user, List<String> ids) throws SQLException {
        java.util.Map<String, Memory> byId = new java.util.HashMap<>();
        for (int from = 0; from < ids.size(); from += 100) {
            List<String> chunk = ids.subList(from, Math.min(ids.size(), from + 100));
            String marks = String.join(", ", java.util.Collections.nCopies(chunk.size(), "?"));
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT " + COLUMNS + " FROM memo_memories WHERE user_id = ? AND id IN (" + marks + ")")) {
                select.setString(1, user);
                for (int i = 0; i < chunk.size(); i++) {
                    select.setString(i + 2, chunk.get(i));
                }
                read(select).forEach(m -> byId.put(m.id(), m));
            }
        }
        List<Memory> found = new ArrayList<>();
        for (String id : ids) {
            Memory memory = byId.get(id);
            if (memory != null) {
                found.add(memory);
            }
        }
        return found;
    }

    static Optional<Memory> find(Connection connection, String user, String id) throws SQLException {
        try (PreparedStatement select =
                connection.prepareStatement("SELECT " + COLUMNS + " FROM memo_memories WHERE user_id = ? AND id = ?")) {
            select.setString(1, user);
            select.setString(2, id);
            List<Memory> found = read(select);
            return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
        }
    }

    /**
     * Inserts {@code memory} with its vector (made by {@code model}), unless a memory of its id is there
     * (the same call made again); returns the memory kept.
     */
    Memory insert(Connection connection, String user, Memory memory, Optional<Vector> vector) throws SQLException {
        Optional<Memory> existing = find(connection, user, memory.id());
        if (existing.isPresent()) {
            return existing.get();
        }
        String terms = SearchTerms.indexed(memory.searchable());
        String sql = sqlite()
                ? "INSERT INTO memo_memories (user_id, " + COLUMNS
                        + ", embedding_model, embedding) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                : "INSERT INTO memo_memories (user_id, " + COLUMNS
                        + ", embedding_model, embedding, terms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
        try (PreparedStatement insert = connection.prepareStatement(sql)) {
            insert.setString(1, user);
            insert.setString(2, memory.id());
            insert.setString(3, memory.content());
            insert.setString(4, Json.write(Json.mapper().valueToTree(memory.tags())));
            Tasks.setText(insert, 5, memory.project());
            insert.setLong(6, memory.createdAt().toEpochMilli());
            insert.setLong(7, memory.updatedAt().toEpochMilli());
            setVector(insert, 8, vector);
            if (!sqlite()) {
                insert.setString(10, terms);
            }
            insert.executeUpdate();
        }
        if (sqlite()) {
            try (PreparedStatement index = connection.prepareStatement(
                    "INSERT INTO memo_memories_fts (owner, memory_id, terms) VALUES (?, ?, ?)")) {
                index.setString(1, owner(user));
                index.setString(2, memory.id());
                index.setString(3, terms);
                index.executeUpdate();
            }
        }
        changed(connection, user);
        return memory;
    }

    /** Replaces the content, tags and project of {@code memory}, with a new vector (or none, to be made later). */
    void update(Connection connection, String user, Memory memory, Optional<Vector> vector) throws SQLException {
        String terms = SearchTerms.indexed(memory.searchable());
        String sql = "UPDATE memo_memories SET content = ?, tags = ?, project = ?, created_at = ?, updated_at = ?,"
                + " embedding_model = ?, embedding = ?" + (sqlite() ? "" : ", terms = ?")
                + " WHERE user_id = ? AND id = ?";
        try (PreparedStatement update = connection.prepareStatement(sql)) {
            update.setString(1, memory.content());
            update.setString(2, Json.write(Json.mapper().valueToTree(memory.tags())));
            Tasks.setText(update, 3, memory.project());
            update.setLong(4, memory.createdAt().toEpochMilli());
            update.setLong(5, memory.updatedAt().toEpochMilli());
            setVector(update, 6, vector);
            int next = 8;
            if (!sqlite()) {
                update.setString(next++, terms);
            }
            update.setString(next++, user);
            update.setString(next, memory.id());
            update.executeUpdate();
        }
        if (sqlite()) {
            try (PreparedStatement index = connection.prepareStatement(
                    "UPDATE memo_memories_fts SET terms = ? WHERE owner = ? AND memory_id = ?")) {
                index.setString(1, terms);
                index.setString(2, owner(user));
                index.setString(3, memory.id());
                index.executeUpdate();
            }
        }
        changed(connection, user);
    }

    void delete(Connection connection, String user, String id) throws SQLException {
        try (PreparedStatement delete =
                connection.prepareStatement("DELETE FROM memo_memories WHERE user_id = ? AND id = ?")) {
            delete.setString(1, user);
            delete.setString(2, id);
            delete.executeUpdate();
        }
        if (sqlite()) {
            try (PreparedStatement index =
                    connection.prepareStatement("DELETE FROM memo_memories_fts WHERE owner = ? AND memory_id = ?")) {
                index.setString(1, owner(user));
                index.setString(2, id);
                index.executeUpdate();
            }
        }
        changed(connection, user);
    }

    /** Moves {@code user}'s version on: vectors kept in memory for them are read again at the next search. */
    private static void changed(Connection connection, String user) throws SQLException {
        try (PreparedStatement bump = connection.prepareStatement("INSERT INTO memo_memory_versions (user_id, version)"
                + " VALUES (?, 1) ON CONFLICT (user_id) DO UPDATE SET version = memo_memory_versions.version + 1")) {
            bump.setString(1, user);
            bump.executeUpdate();
        }
    }

    private static long version(Connection connection, String user) throws SQLException {
        try (PreparedStatement select =
                connection.prepareStatement("SELECT version FROM memo_memory_versions WHERE user_id = ?")) {
            select.setString(1, user);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getLong(1) : 0;
            }
        }
    }

    /**
     * The memories of {@code user} that share a word with {@code terms} ({@link SearchTerms#queryTerms}),
     * best first (BM25 on SQLite, {@code ts_rank_cd} on PostgreSQL), at most {@code limit}.
     */
    public List<Ranked> lexical(String user, List<String> terms, int limit) {
        if (terms.isEmpty()) {
            return List.of();
        }
        return db.read("search the memories of " + user, c -> {
            List<Ranked> ranked = new ArrayList<>();
            if (sqlite()) {
                StringBuilder match =
                        new StringBuilder("owner : ").append(quote(owner(user))).append(" AND terms : (");
                for (int i = 0; i < terms.size(); i++) {
                    match.append(i == 0 ? "" : " OR ").append(quote(terms.get(i)));
                }
                match.append(')');
                try (PreparedStatement select = c.prepareStatement("SELECT memory_id, bm25(memo_memories_fts, 0, 0, 1)"
                        + " FROM memo_memories_fts WHERE memo_memories_fts MATCH ? ORDER BY 2 LIMIT ?")) {
                    select.setString(1, match.toString());
                    select.setInt(2, limit);
                    try (ResultSet row = select.executeQuery()) {
                        while (row.next()) {
                            // bm25() is lower for better matches.
                            ranked.add(new Ranked(row.getString(1), -row.getDouble(2)));
                        }
                    }
                }
            } else {
                try (PreparedStatement select = c.prepareStatement(
                        "SELECT id, ts_rank_cd(search, q) FROM memo_memories, to_tsquery('english', ?) q"
                                + " WHERE user_id = ? AND search @@ q ORDER BY 2 DESC, id LIMIT ?")) {
                    select.setString(1, String.join(" | ", terms));
                    select.setString(2, user);
                    select.setInt(3, limit);
                    try (ResultSet row = select.executeQuery()) {
                        while (row.next()) {
                            ranked.add(new Ranked(row.getString(1), row.getDouble(2)));
                        }
                    }
                }
            }
            return ranked;
        });
    }

    /**
     * The {@code limit} memories of {@code user} whose vectors (made by {@code query}'s model) are most
     * like {@code query}'s, at least {@code floor} alike, most alike first. Every vector of the user's
     * is compared (a user has thousands of memories, not millions), in memory: the process keeps the
     * vectors of the last few users who searched, and reads them again when the user's version in
     * {@code memo_memory_versions} has moved (a change made here or by another process).
     */
    public List<Ranked> nearest(String user, Vector query, int limit, double floor) {
        VectorSet vectors = vectors(user, query.model());
        float[] q = query.values();
        if (vectors.dimensions() != q.length) {
            return List.of();
        }
        PriorityQueue<Ranked> best = new PriorityQueue<>(Comparator.comparingDouble(Ranked::score));
        float[] values = vectors.values();
        for (int i = 0, at = 0; i < vectors.ids().length; i++, at += q.length) {
            double dot = 0;
            for (int d = 0; d < q.length; d++) {
                dot += q[d] * values[at + d];
            }
            if (dot >= floor && (best.size() < limit || dot > best.peek().score())) {
                best.add(new Ranked(vectors.ids()[i], dot));
                if (best.size() > limit) {
                    best.poll();
                }
            }
        }
        List<Ranked> ranked = new ArrayList<>(best);
        ranked.sort(Comparator.comparingDouble(Ranked::score).reversed());
        return ranked;
    }

    /** A user's vectors of one model, one after another in {@code values}, as of {@code version}. */
    private record VectorSet(long version, String[] ids, float[] values, int dimensions) {}

    /** How many users' vectors a process keeps in memory (10,000 memories of 384 dimensions are 15 MB). */
    private static final int CACHED_USERS = 8;

    private final Map<String, VectorSet> cached =
            java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, VectorSet> eldest) {
                    return size() > CACHED_USERS;
                }
            });

    /** {@code user}'s vectors of {@code model}: the ones kept in memory while their version holds, else read. */
    private VectorSet vectors(String user, String model) {
        String key = user + '\u0000' + model;
        return db.read("read the vectors of " + user, c -> {
            long version = version(c, user);
            VectorSet kept = cached.get(key);
            if (kept != null && kept.version() == version) {
                return kept;
            }
            List<String> ids = new ArrayList<>();
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            int dimensions = -1;
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT id, embedding FROM memo_memories WHERE user_id = ? AND embedding_model = ? ORDER BY id")) {
                select.setString(1, user);
                select.setString(2, model);
                select.setFetchSize(500);
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        byte[] vector = row.getBytes(2);
                        if (vector == null || (dimensions >= 0 && vector.length != dimensions * Float.BYTES)) {
                            continue;
                        }
                        dimensions = vector.length / Float.BYTES;
                        ids.add(row.getString(1));
                        bytes.write(vector, 0, vector.length);
                    }
                }
            }
            float[] values = new float[ids.size() * Math.max(dimensions, 0)];
            ByteBuffer.wrap(bytes.toByteArray())
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .asFloatBuffer()
                    .get(values);
            VectorSet read = new VectorSet(version, ids.toArray(String[]::new), values, dimensions);
            cached.put(key, read);
            return read;
        });
    }

    /** Up to {@code limit} memories of {@code user} with no vector made by {@code model}. */
    public List<Unembedded> unembedded(String user, String model, int limit) {
        return db.read("find memories to embed", c -> {
            List<Unembedded> found = new ArrayList<>();
            try (PreparedStatement select = c.prepareStatement("SELECT " + COLUMNS + " FROM memo_memories"
                    + " WHERE user_id = ? AND (embedding_model IS NULL OR embedding_model < ? OR embedding_model > ?)"
                    + " LIMIT ?")) {
                select.setString(1, user);
                select.setString(2, model);
                select.setString(3, model);
                select.setInt(4, limit);
                for (Memory memory : read(select)) {
                    found.add(new Unembedded(memory.id(), memory.searchable()));
                }
            }
            return found;
        });
    }

    /** Keeps the vector of memory {@code id}, unless its content changed since {@code text} was read. */
    public void embedded(String user, String id, String text, Vector vector) {
        db.write("keep a memory's vector", c -> {
            Optional<Memory> now = find(c, user, id);
            if (now.isEmpty() || !now.get().searchable().equals(text)) {
                return 0;
            }
            try (PreparedStatement update = c.prepareStatement(
                    "UPDATE memo_memories SET embedding_model = ?, embedding = ? WHERE user_id = ? AND id = ?")) {
                setVector(update, 1, Optional.of(vector));
                update.setString(3, user);
                update.setString(4, id);
                int updated = update.executeUpdate();
                changed(c, user);
                return updated;
            }
        });
    }

    /** A vector and the model that made it. */
    public record Vector(String model, float[] values) {}

    private static void setVector(PreparedStatement statement, int index, Optional<Vector> vector) throws SQLException {
        if (vector.isEmpty()) {
            statement.setNull(index, Types.VARCHAR);
            statement.setNull(index + 1, Types.BINARY);
            return;
        }
        float[] values = vector.get().values();
        ByteBuffer bytes = ByteBuffer.allocate(values.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            bytes.putFloat(v);
        }
        statement.setString(index, vector.get().model());
        statement.setBytes(index + 1, bytes.array());
    }

    /** The one FTS token that stands for {@code user}: no other user's id makes it. */
    private static String owner(String user) {
        return "u" + HexFormat.of().formatHex(user.getBytes(StandardCharsets.UTF_8)) + "0";
    }

    private static String quote(String term) {
        return '"' + term.replace("\"", "\"\"") + '"';
    }

    private static List<Memory> read(PreparedStatement select) throws SQLException {
        List<Memory> memories = new ArrayList<>();
        try (ResultSet row = select.executeQuery()) {
            while (row.next()) {
                List<String> tags = new ArrayList<>();
                Json.parse(row.getString(3), "memory tags").forEach(t -> tags.add(t.asText()));
                memories.add(new Memory(
                        row.getString(1),
                        row.getString(2),
                        tags,
                        Optional.ofNullable(row.getString(4)),
                        Instant.ofEpochMilli(row.getLong(5)),
                        Instant.ofEpochMilli(row.getLong(6))));
            }
        }
        return memories;
    }
}
