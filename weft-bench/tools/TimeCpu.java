import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * weft-time's CPU per expression, two builds in one JVM: each build's classes in a class loader of
 * their own, each language's corpora parsed by one build then the other in alternating rounds, the
 * thread's CPU time per round; prints the median and the sum of the rounds' ratios (after ÷ before).
 * One JVM and alternating rounds, so a busy machine slows both builds alike. One build against
 * itself (the same class path twice) read within ±5 % on the shared 2-core machine (load 8): the
 * JIT compiles each copy on its own, so run it twice and read a ratio within that band as no change.
 *
 * <pre>
 * java weft-bench/tools/TimeCpu.java BEFORE_CLASSPATH AFTER_CLASSPATH CORPUS_DIR [ROUNDS]
 * e.g. java weft-bench/tools/TimeCpu.java \
 *   /work/base/weft-time/target/classes:$HOME/.m2/repository/com/ibm/icu/icu4j/77.1/icu4j-77.1.jar \
 *   weft-time/target/classes:$HOME/.m2/repository/com/ibm/icu/icu4j/77.1/icu4j-77.1.jar \
 *   weft-time/src/test/resources/corpus 30
 * </pre>
 *
 * The corpora read per language: en.tsv and en-families.tsv; he.tsv and he-families.tsv; ru.tsv and
 * ru-heldback.tsv (only the text column of each line is used; "@now" lines set the reference time).
 */
public final class TimeCpu {

    private record Line(String text, ZonedDateTime now) {}

    private record Build(String name, Object parser, Method parse, Class<?> languages) {
        static Build load(String name, String classPath) throws Exception {
            URL[] urls = Arrays.stream(classPath.split(":"))
                    .map(p -> {
                        try {
                            return Path.of(p).toUri().toURL();
                        } catch (Exception e) {
                            throw new IllegalArgumentException(p, e);
                        }
                    })
                    .toArray(URL[]::new);
            ClassLoader loader = new URLClassLoader(name, urls, ClassLoader.getPlatformClassLoader());
            Class<?> api = Class.forName("dev.weft.time.TimeParser", true, loader);
            Class<?> languages = Class.forName("dev.weft.time.Language", true, loader);
            Object parser = api.getMethod("create").invoke(null);
            Method parse = api.getMethod("parse", String.class, ZonedDateTime.class, languages);
            return new Build(name, parser, parse, languages);
        }

        Object language(String code) throws Exception {
            return languages.getMethod("fromCode", String.class).invoke(null, code);
        }

        long run(List<Line> lines, Object language) throws Exception {
            long found = 0;
            for (Line l : lines) {
                Object result = parse.invoke(parser, l.text(), l.now(), language);
                if (((java.util.Optional<?>) result).isPresent()) {
                    found++;
                }
            }
            return found;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: TimeCpu BEFORE_CLASSPATH AFTER_CLASSPATH CORPUS_DIR [ROUNDS]");
            System.exit(2);
        }
        Build before = Build.load("before", args[0]);
        Build after = Build.load("after", args[1]);
        Path dir = Path.of(args[2]);
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 30;
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        String[][] languages = {
            {"en", "en.tsv", "en-families.tsv"}, {"he", "he.tsv", "he-families.tsv"}, {"ru", "ru.tsv", "ru-heldback.tsv"}
        };
        for (String[] language : languages) {
            List<Line> lines = new ArrayList<>();
            for (int f = 1; f < language.length; f++) {
                lines.addAll(read(dir.resolve(language[f])));
            }
            Object beforeLanguage = before.language(language[0]);
            Object afterLanguage = after.language(language[0]);
            for (int warm = 0; warm < 60; warm++) {
                before.run(lines, beforeLanguage);
                after.run(lines, afterLanguage);
            }
            double[] ratios = new double[rounds];
            long beforeSum = 0;
            long afterSum = 0;
            for (int r = 0; r < rounds; r++) {
                boolean beforeFirst = r % 2 == 0;
                long b = 0;
                long a = 0;
                for (int turn = 0; turn < 2; turn++) {
                    boolean runBefore = (turn == 0) == beforeFirst;
                    long start = mx.getCurrentThreadCpuTime();
                    for (int k = 0; k < 5; k++) {
                        if (runBefore) {
                            before.run(lines, beforeLanguage);
                        } else {
                            after.run(lines, afterLanguage);
                        }
                    }
                    long spent = mx.getCurrentThreadCpuTime() - start;
                    if (runBefore) {
                        b = spent;
                    } else {
                        a = spent;
                    }
                }
                ratios[r] = (double) a / b;
                beforeSum += b;
                afterSum += a;
            }
            Arrays.sort(ratios);
            long found = after.run(lines, afterLanguage);
            System.out.printf(
                    "time_cpu language=%s lines=%d read_after=%d before_us_per_expr=%.2f after_us_per_expr=%.2f"
                            + " ratio_median=%.3f ratio_sum=%.3f%n",
                    language[0],
                    lines.size(),
                    found,
                    beforeSum / 1000.0 / rounds / 5 / lines.size(),
                    afterSum / 1000.0 / rounds / 5 / lines.size(),
                    ratios[rounds / 2],
                    (double) afterSum / beforeSum);
        }
    }

    private static List<Line> read(Path file) throws Exception {
        List<Line> lines = new ArrayList<>();
        ZonedDateTime now = ZonedDateTime.of(LocalDateTime.parse("2026-11-21T14:30:00"), ZoneId.of("Asia/Jerusalem"));
        for (String raw : Files.readAllLines(file)) {
            if (raw.isBlank() || raw.startsWith("#")) {
                continue;
            }
            String[] f = raw.split("\t");
            if (f[0].equals("@now")) {
                now = f.length > 2
                        ? ZonedDateTime.of(LocalDateTime.parse(f[1]), ZoneId.of(f[2]))
                        : OffsetDateTime.parse(f[1]).toZonedDateTime();
                continue;
            }
            lines.add(new Line(f[0], now));
        }
        return lines;
    }
}
