package dev.weft.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Runs the English and Hebrew corpora: each line is a text, the reading expected of it against a
 * reference time, and its grain. Reports the accuracy per language and fails below 90% (English)
 * or 95% (Hebrew).
 */
final class CorpusTest {

    private static final TimeParser PARSER = TimeParser.create();

    record Outcome(int total, List<String> failures) {
        double accuracy() {
            return 100.0 * (total - failures.size()) / total;
        }
    }

    @Test
    void readsTheEnglishCorpus() throws IOException {
        Outcome o = run("en", Language.ENGLISH);
        assertThat(o.total()).isGreaterThanOrEqualTo(300);
        assertThat(o.accuracy())
                .as("English accuracy; failures: %s", o.failures())
                .isGreaterThanOrEqualTo(90.0);
    }

    @Test
    void readsTheHebrewCorpus() throws IOException {
        Outcome o = run("he", Language.HEBREW);
        assertThat(o.total()).isGreaterThanOrEqualTo(300);
        assertThat(o.accuracy())
                .as("Hebrew accuracy; failures: %s", o.failures())
                .isGreaterThanOrEqualTo(95.0);
    }

    @Test
    void readsBothCorporaWithTheLanguageDetected() throws IOException {
        Outcome en = run("en", Language.AUTO);
        Outcome he = run("he", Language.AUTO);
        assertThat(en.accuracy()).isGreaterThanOrEqualTo(90.0);
        assertThat(he.accuracy()).isGreaterThanOrEqualTo(95.0);
    }

    static Outcome run(String name, Language language) throws IOException {
        return run("corpus", name, language);
    }

    /** Runs {@code /<folder>/<name>.tsv}, printing the accuracy and every line read otherwise. */
    static Outcome run(String folder, String name, Language language) throws IOException {
        List<String> failures = new ArrayList<>();
        int total = 0;
        ZonedDateTime now = null;
        for (String line : lines("/" + folder + "/" + name + ".tsv")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t");
            if (f[0].equals("@now")) {
                now = f.length > 2
                        ? LocalDateTime.parse(f[1]).atZone(ZoneId.of(f[2]))
                        : OffsetDateTime.parse(f[1]).toZonedDateTime();
                continue;
            }
            total++;
            String problem = check(f, now, language);
            if (problem != null) {
                failures.add(f[0] + " -> " + problem);
            }
        }
        Outcome o = new Outcome(total, failures);
        System.out.printf(
                "%s %s (%s): %d/%d = %.1f%%%n",
                folder, name, language.code(), total - failures.size(), total, o.accuracy());
        failures.forEach(f -> System.out.println("  FAIL " + f));
        return o;
    }

    /** Null when the parse of {@code f[0]} is what the line expects, else what it was instead. */
    private static String check(String[] f, ZonedDateTime now, Language language) {
        Optional<TimeExpression> parsed;
        try {
            parsed = PARSER.parse(f[0], now, language);
        } catch (RuntimeException e) {
            return "threw " + e;
        }
        String type = f[1];
        String got = parsed.map(TimeJson::toJson).orElse("none");
        if (type.equals("none")) {
            return parsed.isEmpty() ? null : got;
        }
        if (parsed.isEmpty()) {
            return "none";
        }
        Grain grain = Grain.valueOf(f[3].toUpperCase(java.util.Locale.ROOT));
        boolean ok = switch (parsed.get()) {
            case TimeExpression.Instant i ->
                type.equals("instant")
                        && i.grain() == grain
                        && i.value().isEqual(expected(f[2], now))
                        && i.value().getOffset().equals(expected(f[2], now).getOffset());
            case TimeExpression.Interval i -> {
                String[] ends = f[2].split(" \\.\\. ");
                yield type.equals("interval")
                        && i.grain() == grain
                        && i.from().isEqual(expected(ends[0], now))
                        && i.to().isEqual(expected(ends[1], now));
            }
            case TimeExpression.Recurrence r ->
                type.equals("recurrence") && r.toRrule().equals(f[2]) && r.grain() == grain;
        };
        return ok ? null : got;
    }

    /** An expected value: with an offset as written, else a local date or date-time in now's zone. */
    static ZonedDateTime expected(String value, ZonedDateTime now) {
        if (value.length() > 19) {
            return OffsetDateTime.parse(value).toZonedDateTime();
        }
        if (value.length() == 10) {
            return LocalDate.parse(value).atStartOfDay(now.getZone());
        }
        return LocalDateTime.parse(value).atZone(now.getZone());
    }

    static List<String> lines(String resource) throws IOException {
        try (InputStream in = CorpusTest.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("missing corpus " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
