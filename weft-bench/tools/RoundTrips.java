import com.fasterxml.jackson.databind.node.IntNode;
import dev.weft.core.*;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import java.util.*;
import java.util.logging.*;

/**
 * Counts the round trips of durable chain10 runs on PostgreSQL: the driver's Sync messages, one per
 * round trip, from pgjdbc's FINEST log. With NOLOG=1 it logs nothing and reports CPU a step instead:
 * the client's, and the server's if WEFT_PG_PID names its postmaster.pid. A third argument "floor"
 * measures the floor (ten auto-committed rows a run) instead of Weft. See docs/benchmarks.md.
 *
 *   java -cp weft-bench/target/weft-bench.jar weft-bench/tools/RoundTrips.java \
 *       'jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres&currentSchema=rt' 1000 [floor]
 */
public class RoundTrips {
  static int syncs;
  public static void main(String[] args) throws Exception {
    String url = args[0];
    int runs = Integer.parseInt(args[1]);
    Logger pg = Logger.getLogger("org.postgresql");
    if (System.getenv("NOLOG") == null) pg.setLevel(Level.FINEST);
    pg.setUseParentHandlers(false);
    pg.addHandler(new Handler() {
      public void publish(LogRecord r) { String m = r.getMessage(); if (m != null && m.contains("FE=> Sync")) syncs++; }
      public void flush() {}
      public void close() {}
    });
    Node inc = c -> NodeResult.output(IntNode.valueOf(c.input().asInt() + 1));
    Graph.Builder b = Graph.builder("chain10");
    String prev = Graph.START;
    for (int i = 1; i <= 10; i++) { b.node("step" + i, inc).edge(prev, "step" + i); prev = "step" + i; }
    Graph graph = b.edge(prev, Graph.END).compile();
    if (args.length > 2 && args[2].equals("floor")) { floor(url, runs); return; }
    try (RunStore store = Stores.open(Optional.of(url), Map.of())) {
      Runner runner = Runner.builder().store(store).durability(Durability.SYNC).build();
      for (int i = 0; i < Integer.getInteger("warmup", 3000); i++) runner.run(graph, RunRequest.of(IntNode.valueOf(0)));
      int before = syncs;
      long server = serverCpu(), client = clientCpu();
      for (int i = 0; i < runs; i++) {
        RunResult r = runner.run(graph, RunRequest.of(IntNode.valueOf(0)));
        if (r.status() != RunStatus.COMPLETED || r.output().asInt() != 10) throw new IllegalStateException(r.toString());
      }
      report(server, client, runs);
      System.out.printf("round_trips_per_run=%.2f round_trips_per_step=%.2f runs=%d%n", (syncs - before) / (double) runs, (syncs - before) / (runs * 10.0), runs);
    }
  }

  /**
   * The CPU the server's processes have used, in µs, if WEFT_PG_PID names its postmaster.pid (a server
   * on this machine): the postmaster's own and its reaped children's, and its live children's.
   */
  static long serverCpu() throws Exception {
    String pidFile = System.getenv("WEFT_PG_PID");
    if (pidFile == null) return 0;
    long postmaster = Long.parseLong(java.nio.file.Files.readAllLines(java.nio.file.Path.of(pidFile)).get(0).trim());
    String[] own = stat(postmaster);
    long ticks = Long.parseLong(own[12]) + Long.parseLong(own[13]) + Long.parseLong(own[14]) + Long.parseLong(own[15]);
    try (var children = ProcessHandle.of(postmaster).orElseThrow().children()) {
      for (ProcessHandle child : (Iterable<ProcessHandle>) children::iterator) {
        String[] s = stat(child.pid());
        if (s.length > 13) ticks += Long.parseLong(s[12]) + Long.parseLong(s[13]);
      }
    }
    return ticks * 10_000L; // ticks of 10 ms
  }
  static String[] stat(long pid) {
    try {
      String text = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + pid + "/stat"));
      // Fields 3 on, after the command's name (which may hold spaces): field k at index k - 2.
      return ("x " + text.substring(text.lastIndexOf(')') + 2)).split(" ");
    } catch (java.io.IOException e) {
      return new String[0];
    }
  }
  static long clientCpu() {
    thread0 = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1000;
    jit0 = java.lang.management.ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1000;
  }
  static long thread0, jit0;
  static void report(long server, long client, int runs) throws Exception {
    long t = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1000 - thread0;
    long jit = java.lang.management.ManagementFactory.getCompilationMXBean().getTotalCompilationTime() - jit0;
    System.out.printf("server_cpu_us_per_step=%.1f client_cpu_us_per_step=%.1f driver_thread_cpu_us_per_step=%.1f jit_ms=%d load=%s%n",
        (serverCpu() - server) / (runs * 10.0), (clientCpu() - client) / (runs * 10.0),
        t / (runs * 10.0), jit,
        new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/loadavg"))).substring(0, 14));
  }
  static void floor(String url, int runs) throws Exception {
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url)) {
      c.createStatement().execute("CREATE TABLE IF NOT EXISTS floor_rows (run_id TEXT NOT NULL, step INTEGER NOT NULL, state TEXT NOT NULL, PRIMARY KEY (run_id, step))");
      java.sql.PreparedStatement insert = c.prepareStatement("INSERT INTO floor_rows (run_id, step, state) VALUES (?, ?, ?)");
      int n = 0;
      for (int w = 0; w < 2; w++) {
        long server = serverCpu(), client = clientCpu();
        for (int r = 0; r < (w == 0 ? 3000 : runs); r++) {
          String id = "run-" + System.nanoTime() + "-" + (n++);
          for (int s = 1; s <= 10; s++) { insert.setString(1, id); insert.setInt(2, s); insert.setString(3, "{\"count\":" + s + "}"); insert.executeUpdate(); }
        }
        if (w == 1) report(server, client, runs);
      }
    }
  }
}
