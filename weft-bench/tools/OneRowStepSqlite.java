import java.lang.management.ManagementFactory;
import java.nio.file.*;
import java.sql.*;
import java.util.*;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * OneRowStep.java's measurement on SQLite: the CPU of the thread that writes a durable step (SQLite
 * runs in it), for the statements Weft makes today (BEGIN IMMEDIATE, the lease read, the finished
 * step's update, the next step's insert, the journal row, COMMIT), for the one-row design (the lease
 * read and one journal row carrying the step's changes, in BEGIN IMMEDIATE … COMMIT, or as one
 * auto-committed INSERT … SELECT … RETURNING), and for the floor (BEGIN IMMEDIATE, one row, COMMIT),
 * with the store's settings (WAL, synchronous=NORMAL, foreign keys on) in a temporary file.
 *
 *   java -cp weft-bench/target/weft-bench.jar weft-bench/tools/OneRowStepSqlite.java RUNS ROUNDS
 */
public class OneRowStepSqlite {
  public static void main(String[] args) throws Exception {
    int runs = Integer.parseInt(args[0]);
    int rounds = Integer.parseInt(args[1]);
    Path dir = Files.createTempDirectory("weft-onerow");
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    config.enforceForeignKeys(true);
    config.setGetGeneratedKeys(false);
    SQLiteDataSource source = new SQLiteDataSource(config);
    source.setUrl("jdbc:sqlite:" + dir.resolve("onerow.db"));
    try (Connection c = source.getConnection()) {
      setUp(c);
      List<String> variants = List.of("floor", "weft", "one_row", "one_row_one_statement");
      Map<String, List<Double>> cpu = new LinkedHashMap<>();
      int next = 0;
      for (int round = 0; round < rounds; round++) {
        for (String variant : variants) {
          String[] ids = new String[runs];
          try (PreparedStatement run = c.prepareStatement("INSERT INTO runs (id, graph_id, status, variables,"
                  + " pins, created_at, source, lease_owner, lease_until) VALUES (?, 'chain10', 'RUNNING', '{}', '{}', 0,"
                  + " '{}', 'o', 0)");
              PreparedStatement first = c.prepareStatement("INSERT INTO steps (run_id, step_order, node_id,"
                  + " name, type, status, attempt, pinned, details) VALUES (?, 1, 'step1', 'step1', 'node', 'RUNNING',"
                  + " 1, 0, '{}')")) {
            c.setAutoCommit(false);
            for (int i = 0; i < runs; i++) {
              ids[i] = "run-" + (next++);
              run.setString(1, ids[i]);
              run.executeUpdate();
              first.setString(1, ids[i]);
              first.executeUpdate();
            }
            c.commit();
            c.setAutoCommit(true);
          }
          var threads = ManagementFactory.getThreadMXBean();
          long t0 = threads.getCurrentThreadCpuTime();
          steps(c, variant, ids);
          long t1 = threads.getCurrentThreadCpuTime();
          cpu.computeIfAbsent(variant, v -> new ArrayList<>()).add((t1 - t0) / 1000.0 / (runs * 10.0));
        }
      }
      double floor = Collections.min(cpu.get("floor"));
      for (String variant : variants) {
        double least = Collections.min(cpu.get(variant));
        System.out.printf(Locale.ROOT, "onerow_sqlite variant=%s cpu_us_per_step=%.1f over_floor=%.2f all=%s%n",
            variant, least, least / floor, cpu.get(variant));
      }
    }
    try (var files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) Files.delete(f);
    }
    Files.delete(dir);
  }

  static void steps(Connection c, String variant, String[] ids) throws SQLException {
    try (PreparedStatement begin = c.prepareStatement("BEGIN IMMEDIATE");
        PreparedStatement commit = c.prepareStatement("COMMIT");
        PreparedStatement floor = c.prepareStatement("INSERT INTO bare_floor (run_id, step, state) VALUES (?, ?, ?)");
        PreparedStatement lease = c.prepareStatement("SELECT cancel_requested, lease_owner FROM runs WHERE id = ?");
        PreparedStatement update = c.prepareStatement("UPDATE steps SET node_id = ?, name = ?, type = ?, status = ?,"
            + " attempt = ?, pinned = ?, input = ?, input_ref = ?, output = ?, output_ref = ?, error_code = ?,"
            + " error_message = ?, started_at = ?, ended_at = ?, details = ? WHERE run_id = ? AND step_order = ? AND"
            + " (instr(?, ',' || status || ',') > 0)");
        PreparedStatement insert = c.prepareStatement("INSERT INTO steps (run_id, step_order, node_id, name, type,"
            + " status, attempt, pinned, input, input_ref, output, output_ref, error_code, error_message, started_at,"
            + " ended_at, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (run_id, step_order) DO NOTHING");
        PreparedStatement journal = c.prepareStatement("INSERT INTO journal (run_id, seq, events, checkpoints)"
            + " VALUES (?1, (SELECT coalesce(max(seq), 0) + 1 FROM journal WHERE run_id = ?1), ?2, ?3)");
        PreparedStatement oneRow = c.prepareStatement("INSERT INTO journal (run_id, seq, steps, events, checkpoints)"
            + " VALUES (?1, (SELECT coalesce(max(seq), 0) + 1 FROM journal WHERE run_id = ?1), ?2, ?3, ?4)");
        PreparedStatement oneStatement = c.prepareStatement("INSERT INTO journal (run_id, seq, steps, events,"
            + " checkpoints) SELECT ?1, (SELECT coalesce(max(seq), 0) + 1 FROM journal WHERE run_id = ?1), ?2, ?3, ?4"
            + " FROM runs WHERE id = ?1 AND (lease_owner IS NULL OR lease_owner = ?5)"
            + " RETURNING (SELECT cancel_requested FROM runs WHERE id = ?1)")) {
      for (String id : ids) {
        for (int k = 1; k <= 10; k++) {
          switch (variant) {
            case "floor" -> {
              begin.execute();
              floor.setString(1, id);
              floor.setInt(2, k);
              floor.setString(3, "{\"value\":" + k + "}");
              floor.executeUpdate();
              commit.execute();
            }
            case "weft" -> {
              begin.execute();
              readLease(lease, id);
              int i = 1;
              update.setString(i++, "step" + k);
              update.setString(i++, "step" + k);
              update.setString(i++, "node");
              update.setString(i++, "COMPLETED");
              update.setInt(i++, 1);
              update.setBoolean(i++, false);
              update.setString(i++, "8");
              update.setString(i++, null);
              update.setString(i++, "9");
              update.setString(i++, null);
              update.setString(i++, null);
              update.setString(i++, null);
              update.setLong(i++, 1795869470936728527L);
              update.setLong(i++, 1795869470936815907L);
              update.setString(i++, "{}");
              update.setString(i++, id);
              update.setInt(i++, k);
              update.setString(i, ",RUNNING,PENDING,WAITING,");
              update.executeUpdate();
              i = 1;
              insert.setString(i++, id);
              insert.setInt(i++, k + 1);
              insert.setString(i++, "step" + (k + 1));
              insert.setString(i++, "step" + (k + 1));
              insert.setString(i++, "node");
              insert.setString(i++, "PENDING");
              insert.setInt(i++, 0);
              insert.setBoolean(i++, false);
              insert.setString(i++, "null");
              insert.setString(i++, null);
              insert.setString(i++, "null");
              insert.setString(i++, null);
              insert.setString(i++, null);
              insert.setString(i++, null);
              insert.setNull(i++, Types.BIGINT);
              insert.setNull(i++, Types.BIGINT);
              insert.setString(i, "{}");
              insert.executeUpdate();
              journal.setString(1, id);
              journal.setString(2, OneRowStep.EVENTS);
              journal.setString(3, OneRowStep.CHECKPOINT);
              journal.executeUpdate();
              commit.execute();
            }
            case "one_row" -> {
              begin.execute();
              readLease(lease, id);
              oneRow.setString(1, id);
              oneRow.setString(2, "[" + OneRowStep.stepChanges(k) + "]");
              oneRow.setString(3, OneRowStep.EVENTS);
              oneRow.setString(4, OneRowStep.CHECKPOINT);
              oneRow.executeUpdate();
              commit.execute();
            }
            default -> {
              oneStatement.setString(1, id);
              oneStatement.setString(2, "[" + OneRowStep.stepChanges(k) + "]");
              oneStatement.setString(3, OneRowStep.EVENTS);
              oneStatement.setString(4, OneRowStep.CHECKPOINT);
              oneStatement.setString(5, "o");
              try (ResultSet r = oneStatement.executeQuery()) {
                if (!r.next()) throw new IllegalStateException("no row written for " + id);
              }
            }
          }
        }
      }
    }
  }

  static void readLease(PreparedStatement lease, String id) throws SQLException {
    lease.setString(1, id);
    try (ResultSet r = lease.executeQuery()) {
      if (!r.next() || !"o".equals(r.getString(2))) throw new IllegalStateException("lease of " + id);
    }
  }

  static void setUp(Connection c) throws Exception {
    String[] files = {"V1__runs_steps_events_checkpoints.sql", "V2__journal.sql", "V3__fewer_run_indexes.sql",
        "V4__run_users.sql"};
    try (Statement s = c.createStatement()) {
      for (String file : files) {
        try (var in = OneRowStepSqlite.class.getClassLoader().getResourceAsStream("db/weft/sqlite/" + file)) {
          for (String statement : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split(";\\s*\n")) {
            String sql = statement.lines().filter(l -> !l.trim().startsWith("--")).reduce("", (a, b) -> a + "\n" + b).trim();
            if (!sql.isEmpty()) s.execute(sql);
          }
        }
      }
      s.execute("ALTER TABLE journal ADD COLUMN steps TEXT");
      s.execute("CREATE TABLE bare_floor (run_id TEXT NOT NULL, step INTEGER NOT NULL, state TEXT NOT NULL,"
          + " PRIMARY KEY (run_id, step)) WITHOUT ROWID");
    }
  }
}
