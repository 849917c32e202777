package dev.weft.bench;

import dev.weft.time.Language;
import dev.weft.time.TimeExpression;
import dev.weft.time.TimeParser;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code weft-bench time [--seconds N]}: how many time expressions {@code weft-time} parses per
 * second on one thread, per language, over a mix of the phrase families of its corpus (whole-text
 * parses, some of them expressions inside a sentence). Each language is warmed up for half the
 * measuring time, then in slices of a quarter of that for as long as the JIT compiler was busy in the
 * last one ({@link JitCompiler#busy}), up to {@value #MAX_WARMUP_FACTOR} times the first warm-up: on
 * a small machine the compiler takes most of the first seconds, and a measurement taken then measures
 * how fast it compiles. Prints {@code time lang=<en|he|ru> expressions_per_second=<x> warmup_seconds=<y>}.
 */
public final class TimeBenchmark {
    private static final double DEFAULT_SECONDS = 5;
    /** The longest warm-up, in multiples of the first one. */
    static final int MAX_WARMUP_FACTOR = 8;

    private static final String USAGE = "usage: weft-bench time [--seconds N]   (N > 0, default 5)";
    private static final ZonedDateTime NOW = ZonedDateTime.of(2026, 11, 21, 14, 30, 0, 0, ZoneId.of("Asia/Jerusalem"));

    static final List<String> ENGLISH = List.of(
            "tomorrow at 9",
            "remind me tomorrow at 9 to call Dana",
            "in 15 minutes",
            "in half an hour",
            "3 days ago",
            "at 730 in the evening",
            "quarter to 12",
            "next Monday",
            "Tuesday next week",
            "March 3rd at 2pm",
            "15 February 2027",
            "2/15",
            "the last Sunday of March",
            "next month",
            "8:00 PST",
            "from 2 to 4pm",
            "between Monday and Wednesday",
            "every Monday and Thursday at 18:00",
            "every 15 minutes until 5pm",
            "every month on the 5th",
            "tonight at 8",
            "end of the month",
            "in twenty-five minutes",
            "buy milk on the way home");

    static final List<String> HEBREW = List.of(
            "מחר ב-9",
            "תזכיר לי מחר ב-9 להתקשר לדנה",
            "עוד 10 דקות",
            "בעוד רבע שעה",
            "לפני שבעה ימים",
            "בתשע בבוקר",
            "רבע ל12",
            "ביום ראשון הבא",
            "יום שלישי בשבוע הבא",
            "ה15 בפברואר",
            "15 לפברואר 2027",
            "15.2",
            "יום ראשון האחרון של מרץ",
            "חודש הבא",
            "בעוד עשרים וארבע שעות",
            "מ-2 עד 4",
            "מיום שני עד יום רביעי",
            "כל יום שני וחמישי ב-18:00",
            "כל 10 דקות עד 17:00",
            "כל חודש ב-5",
            "מחר בערב ב-7",
            "בסוף החודש",
            "בשמונה וחצי",
            "תקנה חלב בדרך הביתה");

    static final List<String> RUSSIAN = List.of(
            "завтра в 9",
            "напомни мне завтра в 9 позвонить Дане",
            "через 15 минут",
            "через полчаса",
            "3 дня назад",
            "в половине восьмого вечера",
            "без четверти двенадцать",
            "в следующий понедельник",
            "во вторник на следующей неделе",
            "3 марта в 14:00",
            "15 февраля 2027 года",
            "15.02",
            "в следующем месяце",
            "с 2 до 4 дня",
            "с понедельника по среду",
            "по понедельникам и четвергам в 18:00",
            "каждые 15 минут",
            "каждое 5-е число",
            "сегодня вечером в 8",
            "в конце месяца",
            "через двадцать пять минут",
            "купить молоко по дороге домой");

    /** The mix of each language, by its code; a parser without a language (an older build) skips it. */
    private static final Map<String, List<String>> MIXES = Map.of("en", ENGLISH, "he", HEBREW, "ru", RUSSIAN);

    private TimeBenchmark() {}

    public static void run(String[] args) {
        double seconds = seconds(args);
        TimeParser parser = TimeParser.create();
        for (Language language : Language.values()) {
            List<String> mix = MIXES.get(language.code());
            if (mix == null) {
                continue; // AUTO
            }
            System.err.printf(Locale.ROOT, "time: warming up %s%n", language.code());
            double warmup = warmUp(parser, mix, language, seconds / 2);
            double rate = measure(parser, mix, language, seconds);
            System.out.printf(
                    Locale.ROOT,
                    "time lang=%s expressions_per_second=%.0f warmup_seconds=%.1f%n",
                    language.code(),
                    rate,
                    warmup);
        }
    }

    /**
     * Parses the mix for {@code seconds}, then in slices of a quarter of that while the JIT compiler
     * was busy in the last slice, up to {@value #MAX_WARMUP_FACTOR} times {@code seconds} in all.
     *
     * @return how long the warm-up ran, in seconds
     */
    static double warmUp(TimeParser parser, List<String> mix, Language language, double seconds) {
        long start = System.nanoTime();
        measure(parser, mix, language, seconds);
        while (System.nanoTime() - start < MAX_WARMUP_FACTOR * seconds * 1e9) {
            long compiling = JitCompiler.millis();
            long sliceStart = System.nanoTime();
            measure(parser, mix, language, seconds / 4);
            if (!JitCompiler.busy(JitCompiler.millis() - compiling, System.nanoTime() - sliceStart)) {
                break;
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    /** Parses the mix round and round for about {@code seconds}; returns expressions per second. */
    static double measure(TimeParser parser, List<String> mix, Language language, double seconds) {
        long budget = (long) (seconds * 1_000_000_000L);
        long parsed = 0;
        long found = 0;
        long start = System.nanoTime();
        long elapsed;
        do {
            for (String text : mix) {
                Optional<TimeExpression> e = parser.parse(text, NOW, language);
                if (e.isPresent()) {
                    found++;
                }
            }
            parsed += mix.size();
            elapsed = System.nanoTime() - start;
        } while (elapsed < budget);
        if (found == 0) {
            throw new IllegalStateException("the parser found no time in the mix; the benchmark measures nothing");
        }
        return parsed / (elapsed / 1e9);
    }

    private static double seconds(String[] args) {
        double seconds = DEFAULT_SECONDS;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--seconds") && i + 1 < args.length) {
                try {
                    seconds = Double.parseDouble(args[++i]);
                } catch (NumberFormatException e) {
                    throw new UsageException("--seconds must be a number, was '" + args[i] + "'\n" + USAGE);
                }
                if (!(seconds > 0)) {
                    throw new UsageException("--seconds must be positive, was " + args[i] + "\n" + USAGE);
                }
            } else {
                throw new UsageException("unknown argument '" + args[i] + "'\n" + USAGE);
            }
        }
        return seconds;
    }
}
