import dev.weft.store.Stores;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * What a journal row's size costs a synchronous SQLite step: SqliteRunStore's one statement (the
 * owned journal insert, auto-committed) run with a chain10 step's texts in several forms, on the
 * store's own schema (made by Stores.open) and settings, the WAL kept whole (no checkpoint) so that
 * its growth counts the pages each commit writes. The forms: the step changes as the build before
 * issue 40's seventh part wrote them (every field), as this build writes them (a step's defaults
 * left out), as a change-only update would (the finished step's update without node, name and type
 * too), and no step changes at all. RUNS runs of ten steps a form a round, ROUNDS rounds after one
 * of warm-up; the thread's CPU and the WAL pages a step.
 *
 *   java -cp weft-core/target/classes:weft-store/target/classes:DEPS weft-bench/tools/JournalRowPages.java 300 3
 *
 * See docs/benchmarks.md (issue 40, seventh part).
 */
public final class JournalRowPages {
    static final String EVENTS = "[[9,\"step.started\",\"step3\",3,1795860000000000000,null],"
            + "[10,\"step.completed\",\"step3\",3,1795860000000000000,{\"ms\":0}]]";
    static final String CHECKPOINTS = "[[3,4,1795860000000000000,{\"outputs\":{\"step3\":3,\"step1\":1,\"step2\":2},"
            + "\"visits\":{\"step3\":1,\"step1\":1,\"step2\":1},\"pending\":[{\"node\":\"step4\",\"step\":4,"
            + "\"arrivals\":[{\"from\":\"step3\",\"value\":3}]}],\"waiting\":[],\"ended\":{},\"lastEnded\":\"step3\"}]]";
    static final String EVERY_FIELD = "[{\"k\":\"u\",\"order\":3,\"node\":\"step3\",\"name\":\"step3\",\"type\":\"node\","
            + "\"status\":\"COMPLETED\",\"attempt\":1,\"pinned\":false,\"input\":\"2\",\"output\":\"3\","
            + "\"started\":1795860000000000000,\"ended\":1795860000000000000,\"details\":\"{}\","
            + "\"expected\":\",RUNNING,PENDING,WAITING,\"},{\"k\":\"i\",\"order\":4,\"node\":\"step4\",\"name\":\"step4\","
            + "\"type\":\"node\",\"status\":\"PENDING\",\"attempt\":0,\"pinned\":false,\"input\":\"null\",\"output\":\"null\","
            + "\"details\":\"{}\"}]";
    static final String DEFAULTS_LEFT_OUT = "[{\"k\":\"u\",\"order\":3,\"node\":\"step3\",\"name\":\"step3\","
            + "\"type\":\"node\",\"status\":\"COMPLETED\",\"attempt\":1,\"input\":\"2\",\"output\":\"3\","
            + "\"started\":1795860000000000000,\"ended\":1795860000000000000,\"expected\":\",PENDING,RUNNING,WAITING,\"},"
            + "{\"k\":\"i\",\"order\":4,\"node\":\"step4\",\"name\":\"step4\",\"type\":\"node\",\"status\":\"PENDING\"}]";
    static final String CHANGE_ONLY = "[{\"k\":\"u\",\"order\":3,\"status\":\"COMPLETED\",\"attempt\":1,\"input\":\"2\","
            + "\"output\":\"3\",\"started\":1795860000000000000,\"ended\":1795860000000000000,"
            + "\"expected\":\",PENDING,RUNNING,WAITING,\"},{\"k\":\"i\",\"order\":4,\"node\":\"step4\",\"name\":\"step4\","
            + "\"type\":\"node\",\"status\":\"PENDING\"}]";
    static final String STATEMENT = "INSERT INTO journal (run_id, seq, events, checkpoints, steps)"
            + " SELECT ?1, (SELECT coalesce(max(seq), 0) + 1 FROM journal WHERE run_id = ?1), ?2, ?3, ?4"
            + " FROM runs WHERE id = ?1 AND (lease_owner IS NULL OR lease_owner = ?5)"
            + " RETURNING (SELECT cancel_requested FROM runs WHERE id = ?1)";

    public static void main(String[] args) throws Exception {
        int runs = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        Path dir = Files.createTempDirectory("weft-journal-pages");
        Path db = dir.resolve("weft.db");
        Stores.open("sqlite:" + db).close();
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.enforceForeignKeys(true);
        config.setGetGeneratedKeys(false);
        SQLiteDataSource source = new SQLiteDataSource(config);
        source.setUrl("jdbc:sqlite:" + db);
        Map<String, String> forms = new LinkedHashMap<>();
        forms.put("every_field", EVERY_FIELD);
        forms.put("defaults_left_out", DEFAULTS_LEFT_OUT);
        forms.put("change_only", CHANGE_ONLY);
        forms.put("no_steps", null);
        Map<String, List<String>> results = new LinkedHashMap<>();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (Connection c = source.getConnection();
                PreparedStatement step = c.prepareStatement(STATEMENT);
                PreparedStatement run = c.prepareStatement("INSERT INTO runs (id, graph_id, status, input, variables,"
                        + " pins, created_at, source, lease_owner, lease_until) VALUES (?, 'chain10', 'RUNNING', '0',"
                        + " '{}', '{}', 0, '{}', 'runner', 0)")) {
            try (Statement s = c.createStatement()) {
                s.execute("PRAGMA wal_autocheckpoint = 0");
            }
            for (int round = 0; round <= rounds; round++) {
                for (Map.Entry<String, String> form : forms.entrySet()) {
                    String[] ids = new String[runs];
                    c.setAutoCommit(false);
                    for (int i = 0; i < runs; i++) {
                        ids[i] = UUID.randomUUID().toString();
                        run.setString(1, ids[i]);
                        run.executeUpdate();
                    }
                    c.commit();
                    c.setAutoCommit(true);
                    try (Statement s = c.createStatement()) {
                        s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
                    }
                    long cpu = threads.getCurrentThreadCpuTime();
                    for (int k = 0; k < 10; k++) {
                        for (String id : ids) {
                            step.setString(1, id);
                            step.setString(2, EVENTS);
                            step.setString(3, CHECKPOINTS);
                            step.setString(4, form.getValue());
                            step.setString(5, "runner");
                            try (ResultSet row = step.executeQuery()) {
                                row.next();
                            }
                        }
                    }
                    double us = (threads.getCurrentThreadCpuTime() - cpu) / 1000.0 / (runs * 10.0);
                    // A WAL frame is a page of 4,096 bytes and a header of 24.
                    double pages = Files.size(Path.of(db + "-wal")) / 4120.0 / (runs * 10.0);
                    if (round > 0) {
                        results.computeIfAbsent(form.getKey(), f -> new ArrayList<>())
                                .add(String.format(Locale.ROOT, "%.1f/%.2f", us, pages));
                    }
                }
            }
        }
        for (Map.Entry<String, List<String>> result : results.entrySet()) {
            String text = forms.get(result.getKey());
            System.out.printf(Locale.ROOT, "journal_row form=%s steps_chars=%d cpu_us_per_step/wal_pages_per_step=%s%n",
                    result.getKey(), text == null ? 0 : text.length(), result.getValue());
        }
        try (var files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) Files.delete(f);
        }
        Files.delete(dir);
    }
}
