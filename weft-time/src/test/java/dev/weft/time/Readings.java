package dev.weft.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;

/** What the parser reads in one language, asserted against Saturday 2026-11-21 14:30 in Jerusalem. */
final class Readings {
    static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");
    static final ZonedDateTime NOW = ZonedDateTime.of(2026, 11, 21, 14, 30, 0, 0, JERUSALEM);
    /** Tuesday 2026-03-10 10:42:50 in Jerusalem: a now with seconds. */
    static final ZonedDateTime WITH_SECONDS = ZonedDateTime.of(2026, 3, 10, 10, 42, 50, 0, JERUSALEM);

    static final TimeParser PARSER = TimeParser.create();

    private final Language language;

    Readings(Language language) {
        this.language = language;
    }

    /** A local date ({@code 2026-11-22}) or date-time ({@code 2026-11-22T09:00}) in Jerusalem. */
    static ZonedDateTime local(String local) {
        return LocalDateTime.parse(local.length() == 10 ? local + "T00:00" : local)
                .atZone(JERUSALEM);
    }

    TimeExpression parse(String text) {
        return parse(text, NOW);
    }

    TimeExpression parse(String text, ZonedDateTime now) {
        return PARSER.parse(text, now, language).orElseThrow(() -> new AssertionError("no time in: " + text));
    }

    /** The whole text is an instant at {@code local}, of that grain. */
    void instant(String text, String local, Grain grain) {
        instant(NOW, text, local, grain);
    }

    void instant(ZonedDateTime now, String text, String local, Grain grain) {
        TimeExpression e = parse(text, now);
        assertThat(e).as(text).isInstanceOf(TimeExpression.Instant.class);
        TimeExpression.Instant i = (TimeExpression.Instant) e;
        assertThat(i.value()).as(text).isEqualTo(local(local));
        assertThat(i.grain()).as(text).isEqualTo(grain);
        assertThat(i.text()).as(text).isEqualTo(text);
    }

    /** The text is an interval from {@code from} to {@code to}, of that grain. */
    TimeExpression.Interval interval(String text, String from, String to, Grain grain) {
        TimeExpression e = parse(text);
        assertThat(e).as(text).isInstanceOf(TimeExpression.Interval.class);
        TimeExpression.Interval i = (TimeExpression.Interval) e;
        assertThat(i.from()).as(text).isEqualTo(local(from));
        assertThat(i.to()).as(text).isEqualTo(local(to));
        assertThat(i.grain()).as(text).isEqualTo(grain);
        return i;
    }

    /** The RRULE of the recurrence the text is. */
    String rrule(String text) {
        TimeExpression e = parse(text);
        assertThat(e).as(text).isInstanceOf(TimeExpression.Recurrence.class);
        return ((TimeExpression.Recurrence) e).toRrule();
    }
}
