package dev.weft.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import redis.clients.jedis.RedisClient;

/**
 * The CPU time spent by everything a queue benchmark runs: this JVM, the Redis server (its own {@code
 * INFO cpu}) and the PostgreSQL server's processes (those {@code pg_stat_activity} lists, read from
 * {@code /proc}). On a machine shared with other work, time on the CPU moves much less with the load
 * than wall time does, so it is the figure two measurements taken at different loads can be compared
 * by. Linux only for the database's share (elsewhere it counts 0).
 */
final class CpuMeter {
    /** Clock ticks a second, as {@code /proc/<pid>/stat} counts them (USER_HZ, 100 on Linux). */
    private static final double TICKS_PER_SECOND = 100;

    private final String redisUrl;
    private final String databaseUrl;
    private long jvmNanos;
    private long compilerTicks;
    private double redisSeconds;
    private Map<Long, Long> databaseTicks = Map.of();

    private CpuMeter(String redisUrl, String databaseUrl) {
        this.redisUrl = redisUrl;
        this.databaseUrl = databaseUrl;
    }

    /** Starts counting now. */
    static CpuMeter start(String redisUrl, String databaseUrl) {
        CpuMeter meter = new CpuMeter(redisUrl, databaseUrl);
        meter.jvmNanos = jvmNanos();
        meter.compilerTicks = compilerTicks();
        meter.redisSeconds = redisSeconds(redisUrl);
        meter.databaseTicks = databaseTicks(databaseUrl);
        return meter;
    }

    /** The CPU spent since the start, in µs: the JVM's, Redis's and the database's. */
    Spent spent() {
        long jvm = jvmNanos() - jvmNanos;
        double redis = redisSeconds(redisUrl) - redisSeconds;
        long ticks = 0;
        for (Map.Entry<Long, Long> now : databaseTicks(databaseUrl).entrySet()) {
            ticks += now.getValue() - databaseTicks.getOrDefault(now.getKey(), 0L);
        }
        return new Spent(
                jvm / 1000.0,
                (compilerTicks() - compilerTicks) / TICKS_PER_SECOND * 1e6,
                redis * 1e6,
                ticks / TICKS_PER_SECOND * 1e6);
    }

    /**
     * CPU time in µs, by where it was spent. {@code jitMicros} is the share of the JVM's that its
     * just-in-time compilers spent (code compiled while it was measured: a one-off of a process, which
     * a longer warm-up leaves out).
     */
    record Spent(double jvmMicros, double jitMicros, double redisMicros, double databaseMicros) {
        double totalMicros() {
            return jvmMicros + redisMicros + databaseMicros;
        }
    }

    private static long jvmNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * User and system ticks of this JVM's compiler threads ({@code C1}/{@code C2 CompilerThread}, from
     * {@code /proc/self/task}); 0 elsewhere than on Linux. A compiler thread that ended meanwhile is not
     * counted, so the share may be under what it was, never over.
     */
    private static long compilerTicks() {
        long ticks = 0;
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String text = Files.readString(task.resolve("stat"));
                    String name = text.substring(text.indexOf('(') + 1, text.lastIndexOf(')'));
                    if (name.contains("CompilerThre")) {
                        String[] fields =
                                text.substring(text.lastIndexOf(')') + 2).split(" ");
                        ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    }
                } catch (IOException | RuntimeException e) {
                    // The thread ended: not counted.
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return ticks;
    }

    private static double redisSeconds(String url) {
        try (RedisClient client = RedisClient.create(URI.create(url))) {
            double seconds = 0;
            for (String line : client.info("cpu").split("\r?\n")) {
                if (line.startsWith("used_cpu_sys:") || line.startsWith("used_cpu_user:")) {
                    seconds += Double.parseDouble(
                            line.substring(line.indexOf(':') + 1).trim());
                }
            }
            return seconds;
        }
    }

    /** User and system ticks of each of the database server's processes, by process id. */
    private static Map<Long, Long> databaseTicks(String url) {
        Map<Long, Long> ticks = new HashMap<>();
        try (Connection connection = DriverManager.getConnection(url);
                Statement select = connection.createStatement();
                ResultSet rows = select.executeQuery("SELECT pid FROM pg_stat_activity")) {
            while (rows.next()) {
                long pid = rows.getLong(1);
                Path stat = Path.of("/proc", Long.toString(pid), "stat");
                try {
                    String text = Files.readString(stat);
                    // The fields after the command's name (in parentheses, which may hold spaces).
                    String[] fields = text.substring(text.lastIndexOf(')') + 2).split(" ");
                    ticks.put(pid, Long.parseLong(fields[11]) + Long.parseLong(fields[12]));
                } catch (IOException | RuntimeException e) {
                    // Gone, or not Linux: not counted.
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not list the database's processes: " + e.getMessage(), e);
        }
        return ticks;
    }
}
