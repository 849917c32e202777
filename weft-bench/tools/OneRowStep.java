import java.sql.*;
import java.util.*;

/**
 * The server's CPU a durable step costs, for the statement Weft sends today (weft_apply: the finished
 * step's update, the next step's insert, a journal row, under the run's FOR SHARE lock) and for the
 * statements of the one-row design (the step's changes carried by its journal row, one plain prepared
 * statement), against the floor (one auto-committed row). Each step is one auto-committed statement
 * on one connection, as Weft's synchronous step is; the batches' text is what Weft sends for a
 * chain10 step (captured from the server's log). The server's CPU comes from /proc, as in
 * RoundTrips.java (WEFT_PG_PID names the server's postmaster.pid). See docs/benchmarks.md.
 *
 *   java -cp weft-bench/target/weft-bench.jar weft-bench/tools/OneRowStep.java \
 *       'jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres' RUNS ROUNDS
 *
 * It makes its own schema (onerow), with Weft's runs, steps and journal tables as migrations V1 to V8
 * leave them, and drops it at the end.
 */
public class OneRowStep {
  static final String CHECKPOINT = "[[9,10,1795869470936914773,{\"outputs\":{\"step1\":1,\"step9\":9,\"step8\":8,"
      + "\"step7\":7,\"step6\":6,\"step5\":5,\"step4\":4,\"step3\":3,\"step2\":2},\"visits\":{\"step1\":1,\"step9\":1,"
      + "\"step8\":1,\"step7\":1,\"step6\":1,\"step5\":1,\"step4\":1,\"step3\":1,\"step2\":1},\"pending\":[{\"node\":"
      + "\"step10\",\"step\":10,\"arrivals\":[{\"from\":\"step9\",\"value\":9}]}],\"waiting\":[],\"ended\":{},"
      + "\"lastEnded\":\"\"}]]";
  static final String EVENTS = "[[18,\"step.started\",\"step9\",9,1795869470936751772,null],[19,\"step.completed\","
      + "\"step9\",9,1795869470936869606,{\"ms\":0}]]";

  static String stepChanges(int k) {
    return "{\"k\":\"u\",\"order\":" + k + ",\"node\":\"step" + k + "\",\"name\":\"step" + k + "\",\"type\":\"node\","
        + "\"status\":\"COMPLETED\",\"attempt\":1,\"pinned\":false,\"input\":\"8\",\"output\":\"9\","
        + "\"started\":1795869470936728527,\"ended\":1795869470936815907,\"details\":\"{}\","
        + "\"expected\":\",RUNNING,PENDING,WAITING,\"},{\"k\":\"i\",\"order\":" + (k + 1) + ",\"node\":\"step"
        + (k + 1) + "\",\"name\":\"step" + (k + 1) + "\",\"type\":\"node\",\"status\":\"PENDING\",\"attempt\":0,"
        + "\"pinned\":false,\"input\":\"null\",\"output\":\"null\",\"details\":\"{}\"}";
  }

  static String applyBatch(int k) {
    StringBuilder j = new StringBuilder("{\"k\":\"j\",\"events\":");
    appendString(j, EVENTS);
    j.append(",\"checkpoints\":");
    appendString(j, CHECKPOINT);
    return "[" + stepChanges(k) + "," + j + "}]";
  }

  static void appendString(StringBuilder b, String s) {
    b.append('"');
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\');
      b.append(c);
    }
    b.append('"');
  }

  /** The one-row step: the lease read under FOR SHARE (or not) and, if the lease is ours, the row. */
  static String oneRow(String table, String lock) {
    return "WITH r AS (SELECT cancel_requested, lease_owner FROM onerow.runs WHERE id = ?" + lock
        + "), j AS (INSERT INTO onerow." + table + " (run_id, steps, events, checkpoints)"
        + " SELECT ?, ?, ?, ? FROM r WHERE r.lease_owner IS NULL OR r.lease_owner = ? RETURNING 1)"
        + " SELECT r.cancel_requested, r.lease_owner, (SELECT count(*) FROM j) FROM r";
  }

  public static void main(String[] args) throws Exception {
    String url = args[0];
    int runs = Integer.parseInt(args[1]);
    int rounds = Integer.parseInt(args[2]);
    try (Connection c = DriverManager.getConnection(url)) {
      setUp(c);
      List<String> variants = List.of(
          "floor", "weft_apply", "one_row", "one_row_no_key_update", "one_row_no_fk", "one_row_no_fk_no_lock");
      Map<String, List<Double>> server = new LinkedHashMap<>();
      Map<String, List<Double>> wall = new LinkedHashMap<>();
      int next = 0;
      for (int round = 0; round < rounds; round++) {
        for (String variant : variants) {
          String[] ids = new String[runs];
          try (PreparedStatement run = c.prepareStatement("INSERT INTO onerow.runs (id, graph_id, status, variables,"
                  + " pins, created_at, source, lease_owner, lease_until) VALUES (?, 'chain10', 'RUNNING', '{}', '{}', 0,"
                  + " '{}', 'o', 0)");
              PreparedStatement first = c.prepareStatement("INSERT INTO onerow.steps (run_id, step_order, node_id,"
                  + " name, type, status, attempt, pinned, details) VALUES (?, 1, 'step1', 'step1', 'node', 'RUNNING',"
                  + " 1, false, '{}')")) {
            for (int i = 0; i < runs; i++) {
              ids[i] = "run-" + (next++);
              run.setString(1, ids[i]);
              run.addBatch();
              first.setString(1, ids[i]);
              first.addBatch();
            }
            run.executeBatch();
            first.executeBatch();
          }
          long s0 = RoundTrips.serverCpu();
          long t0 = System.nanoTime();
          steps(c, variant, ids);
          long t1 = System.nanoTime();
          long s1 = RoundTrips.serverCpu();
          double n = runs * 10.0;
          server.computeIfAbsent(variant, v -> new ArrayList<>()).add((s1 - s0) / n);
          wall.computeIfAbsent(variant, v -> new ArrayList<>()).add((t1 - t0) / 1000.0 / n);
        }
      }
      double floor = Collections.min(server.get("floor"));
      for (String variant : variants) {
        double least = Collections.min(server.get(variant));
        System.out.printf(Locale.ROOT, "onerow variant=%s server_cpu_us_per_step=%.1f over_floor=%.2f wall_us_per_step=%.1f all=%s%n",
            variant, least, least / floor, Collections.min(wall.get(variant)), server.get(variant));
      }
      try (Statement s = c.createStatement()) {
        s.execute("DROP SCHEMA onerow CASCADE");
      }
    }
  }

  static void steps(Connection c, String variant, String[] ids) throws SQLException {
    String sql = switch (variant) {
      case "floor" -> "INSERT INTO onerow.bare_floor (run_id, step, state) VALUES (?, ?, ?)";
      case "weft_apply" -> "SELECT onerow.weft_apply(?, ?, ?::jsonb)";
      case "one_row" -> oneRow("journal_one", " FOR SHARE");
      case "one_row_no_key_update" -> oneRow("journal_one", " FOR NO KEY UPDATE");
      case "one_row_no_fk" -> oneRow("journal_one_no_fk", " FOR SHARE");
      default -> oneRow("journal_one_no_fk", "");
    };
    try (PreparedStatement p = c.prepareStatement(sql)) {
      for (String id : ids) {
        for (int k = 1; k <= 10; k++) {
          switch (variant) {
            case "floor" -> {
              p.setString(1, id);
              p.setInt(2, k);
              p.setString(3, "{\"value\":" + k + "}");
              p.executeUpdate();
            }
            case "weft_apply" -> {
              p.setString(1, id);
              p.setString(2, "o");
              p.setString(3, applyBatch(k));
              try (ResultSet r = p.executeQuery()) {
                r.next();
              }
            }
            default -> {
              p.setString(1, id);
              p.setString(2, id);
              p.setString(3, "[" + stepChanges(k) + "]");
              p.setString(4, EVENTS);
              p.setString(5, CHECKPOINT);
              p.setString(6, "o");
              try (ResultSet r = p.executeQuery()) {
                if (!r.next() || r.getLong(3) != 1) throw new IllegalStateException("no row written for " + id);
              }
            }
          }
        }
      }
    }
  }

  static void setUp(Connection c) throws Exception {
    String[] files = {"V1__runs_steps_events_checkpoints.sql", "V2__apply_function.sql", "V3__apply_ends_runs.sql",
        "V4__journal.sql", "V5__fewer_run_indexes.sql", "V6__run_users.sql", "V8__apply_in_schema.sql"};
    try (Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS onerow CASCADE");
      s.execute("CREATE SCHEMA onerow");
      s.execute("SET search_path = onerow");
      for (String file : files) {
        try (var in = OneRowStep.class.getClassLoader().getResourceAsStream("db/weft/postgresql/" + file)) {
          s.execute(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
              .replace("${flyway:defaultSchema}", "onerow"));
        }
      }
      s.execute("CREATE TABLE onerow.bare_floor (run_id TEXT NOT NULL, step INTEGER NOT NULL, state TEXT NOT NULL,"
          + " PRIMARY KEY (run_id, step))");
      s.execute("CREATE TABLE onerow.journal_one (run_id TEXT NOT NULL REFERENCES onerow.runs (id) ON DELETE CASCADE,"
          + " seq BIGINT GENERATED ALWAYS AS IDENTITY, steps TEXT, events TEXT, checkpoints TEXT, PRIMARY KEY (run_id, seq))");
      s.execute("CREATE TABLE onerow.journal_one_no_fk (run_id TEXT NOT NULL, seq BIGINT GENERATED ALWAYS AS IDENTITY,"
          + " steps TEXT, events TEXT, checkpoints TEXT, PRIMARY KEY (run_id, seq))");
      s.execute("SET search_path = public");
    }
  }
}
