package dev.weft.time.internal;

import dev.weft.time.Grain;
import dev.weft.time.NextWeekday;
import dev.weft.time.Span;
import dev.weft.time.TimeExpression;
import dev.weft.time.TimeExpression.Recurrence.Frequency;
import dev.weft.time.internal.DateRef.CalendarDate;
import dev.weft.time.internal.DateRef.ClosestWeekday;
import dev.weft.time.internal.DateRef.DayOfMonthRef;
import dev.weft.time.internal.DateRef.EasterRef;
import dev.weft.time.internal.DateRef.EndOf;
import dev.weft.time.internal.DateRef.HebrewDate;
import dev.weft.time.internal.DateRef.MonthInYear;
import dev.weft.time.internal.DateRef.MonthRef;
import dev.weft.time.internal.DateRef.NthDayOf;
import dev.weft.time.internal.DateRef.NthWeekOf;
import dev.weft.time.internal.DateRef.NthWeekdayRef;
import dev.weft.time.internal.DateRef.PeriodRef;
import dev.weft.time.internal.DateRef.QuarterRef;
import dev.weft.time.internal.DateRef.RelativeDay;
import dev.weft.time.internal.DateRef.Shifted;
import dev.weft.time.internal.DateRef.StartOf;
import dev.weft.time.internal.DateRef.WeekdayAfter;
import dev.weft.time.internal.DateRef.WeekdayRef;
import dev.weft.time.internal.DateRef.WithWeekday;
import dev.weft.time.internal.DateRef.YearRef;
import dev.weft.time.internal.Parsed.InstantParse;
import dev.weft.time.internal.Parsed.IntervalParse;
import dev.weft.time.internal.Parsed.LastingParse;
import dev.weft.time.internal.Parsed.RecurrenceParse;
import dev.weft.time.internal.Parsed.WeekendParse;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Turns what a grammar read into exact times against a reference "now". Immutable and thread-safe.
 *
 * <p>The rules for what is left unsaid are those documented on {@link dev.weft.time.TimeParser}.
 */
final class Resolver {

    /** A resolved instant: its value and how precise it is. */
    record Resolved(ZonedDateTime value, Grain grain) {}

    record DateValue(LocalDate date, Grain grain) {}

    private final ZonedDateTime now;
    private final DayOfWeek weekStart;
    private final NextWeekday nextWeekday;

    Resolver(ZonedDateTime now, DayOfWeek weekStart, NextWeekday nextWeekday) {
        this.now = now.truncatedTo(ChronoUnit.SECONDS);
        this.weekStart = weekStart;
        this.nextWeekday = nextWeekday;
    }

    /** The expression for a parse, or empty when it names no real time (February 30). */
    Optional<TimeExpression> resolve(Parsed parsed, String text, Span span) {
        return switch (parsed) {
            case InstantParse p ->
                Optional.ofNullable(instant(p.spec(), now))
                        .map(r -> new TimeExpression.Instant(text, span, local(r.value()), r.grain()));
            case IntervalParse p -> interval(p, text, span);
            case LastingParse p -> lasting(p, text, span);
            case WeekendParse p -> Optional.of(weekend(p, text, span));
            case RecurrenceParse p -> recurrence(p, text, span);
        };
    }

    /** A value read in a zone the text named ("8pm CET"), told in the zone of now. */
    private ZonedDateTime local(ZonedDateTime value) {
        return value.getZone().equals(now.getZone()) ? value : value.withZoneSameInstant(now.getZone());
    }

    // ---- instants ---------------------------------------------------------------------------

    Resolved instant(InstantSpec s, ZonedDateTime reference) {
        ZoneId zone = s.zone != null ? s.zone : reference.getZone();
        ZonedDateTime ref = reference.withZoneSameInstant(zone);
        LocalDate today = ref.toLocalDate();
        if (s.now || (s.sameTime && s.date == null && s.time == null && s.offset == null && s.partOfDay == null)) {
            return new Resolved(ref, Grain.SECOND); // "at this time" with no day named is now
        }
        DateValue date = null;
        if (s.offset != null) {
            if (!s.offset.dateBased()) {
                // "in 1 minute" said at 10:42:50 is 10:43:50: an amount from now is exact to the second
                return new Resolved(ref.plus(s.offset.amount(), s.offset.unit()), Grain.SECOND);
            }
            if (s.time == null && s.partOfDay == null && !s.sameTime) {
                // "in 3 days", "two weeks ago": the same time of day, to the hour
                ZonedDateTime v = ref.plus(s.offset.amount(), s.offset.unit()).truncatedTo(ChronoUnit.HOURS);
                return new Resolved(v, Grain.HOUR);
            }
            date = new DateValue(today.plus(s.offset.amount(), s.offset.unit()), Grain.DAY);
        } else if (s.date != null) {
            date = date(s.date, today);
            if (date == null) {
                return null;
            }
        }
        if (s.sameTime && s.time == null && s.date instanceof PeriodRef p && p.grain() != Grain.QUARTER) {
            // "this time next week": now moved by the period, not the period's start
            LocalDate day = today.plus(
                    p.shift(),
                    p.grain() == Grain.WEEK
                            ? ChronoUnit.WEEKS
                            : p.grain() == Grain.MONTH
                                    ? ChronoUnit.MONTHS
                                    : p.grain() == Grain.YEAR ? ChronoUnit.YEARS : ChronoUnit.DAYS);
            return new Resolved(ZonedDateTime.of(day, ref.toLocalTime().withSecond(0), zone), Grain.MINUTE);
        }
        if (s.sameTime && s.time == null && date != null) {
            return new Resolved(ZonedDateTime.of(date.date(), ref.toLocalTime().withSecond(0), zone), Grain.MINUTE);
        }
        if (s.time != null) {
            return withTime(date == null ? null : date.date(), s.time, s.partOfDay, ref);
        }
        if (s.partOfDay != null) {
            LocalDate day = date != null
                    ? date.date()
                    : s.thisPartOfDay || ref.getHour() < s.partOfDay.endHour() ? today : today.plusDays(1);
            return new Resolved(at(day, s.partOfDay.hour(), 0, 0, zone), Grain.HOUR);
        }
        if (date == null) {
            return null;
        }
        return new Resolved(date.date().atStartOfDay(zone), date.grain());
    }

    private Resolved withTime(LocalDate date, ClockTime t, PartOfDay pod, ZonedDateTime ref) {
        ZoneId zone = ref.getZone();
        LocalDate today = ref.toLocalDate();
        if (t.ambiguous() && pod == null) {
            if (date == null || date.equals(today)) {
                for (int h : candidates(t.hour())) {
                    ZonedDateTime v = at(today, h, t.minute(), t.second(), zone);
                    if (!v.isBefore(ref)) {
                        return new Resolved(v, t.grain());
                    }
                }
                if (date == null) {
                    int h = candidates(t.hour())[0];
                    return new Resolved(at(today.plusDays(1), h, t.minute(), t.second(), zone), t.grain());
                }
            }
            return new Resolved(at(date, daytimeHour(t.hour()), t.minute(), t.second(), zone), t.grain());
        }
        int hour = pod != null && t.meridiem() == ClockTime.Meridiem.NONE && !t.twentyFourHour()
                ? pod.hour24(t.hour())
                : t.hour24();
        if (t.hour() == 24) {
            hour = 24;
        }
        if (date == null) {
            ZonedDateTime v = at(today, hour, t.minute(), t.second(), zone);
            if (v.isBefore(ref)) {
                v = at(today.plusDays(1), hour, t.minute(), t.second(), zone);
            }
            return new Resolved(v, t.grain());
        }
        return new Resolved(at(date, hour, t.minute(), t.second(), zone), t.grain());
    }

    /**
     * The readings of an hour written without am/pm, earliest first: morning or evening, whichever
     * comes next ("at 2" at 14:30 is 02:00 tomorrow); 12 is noon or midnight.
     */
    static int[] candidates(int hour) {
        if (hour == 12) {
            return new int[] {12, 24};
        }
        return new int[] {hour, hour + 12};
    }

    /** The daytime reading of an hour on a given day: 7-11 morning, 12 noon, 1-6 afternoon and evening. */
    static int daytimeHour(int hour) {
        return hour >= 1 && hour <= 6 ? hour + 12 : hour;
    }

    private static ZonedDateTime at(LocalDate date, int hour, int minute, int second, ZoneId zone) {
        LocalDate d = hour == 24 ? date.plusDays(1) : date;
        return ZonedDateTime.of(LocalDateTime.of(d, LocalTime.of(hour % 24, minute, second)), zone);
    }

    // ---- dates ------------------------------------------------------------------------------

    private DateValue date(DateRef ref, LocalDate today) {
        return switch (ref) {
            case RelativeDay r -> new DateValue(today.plusDays(r.days()), Grain.DAY);
            case NthDayOf n -> nthDay(n, today);
            case NthWeekOf n -> nthWeek(n, today);
            case WithWeekday w -> withWeekday(w, today);
            case MonthInYear m ->
                new DateValue(LocalDate.of(today.getYear() + m.yearShift(), m.month(), 1), Grain.MONTH);
            case WeekdayAfter w -> {
                DateValue base = date(w.base(), today);
                if (base == null) {
                    yield null;
                }
                LocalDate d = w.n() > 0
                        ? base.date().with(TemporalAdjusters.next(w.day())).plusWeeks(w.n() - 1L)
                        : base.date().with(TemporalAdjusters.previous(w.day())).plusWeeks(w.n() + 1L);
                yield new DateValue(d, Grain.DAY);
            }
            case ClosestWeekday c -> {
                DateValue base = date(c.base(), today);
                if (base == null) {
                    yield null;
                }
                LocalDate after = base.date().with(TemporalAdjusters.nextOrSame(c.day()));
                LocalDate before = base.date().with(TemporalAdjusters.previousOrSame(c.day()));
                long ahead = ChronoUnit.DAYS.between(base.date(), after);
                long back = ChronoUnit.DAYS.between(before, base.date());
                yield new DateValue(ahead <= back ? after : before, Grain.DAY);
            }
            case HebrewDate h -> HebrewDates.resolve(h, today);
            case EasterRef e -> easter(e, today);
            case WeekdayRef w -> new DateValue(weekday(w, today), Grain.DAY);
            case CalendarDate c -> calendarDate(c, today);
            case DayOfMonthRef d -> dayOfMonth(d, today);
            case MonthRef m -> new DateValue(month(m, today), Grain.MONTH);
            case PeriodRef p -> new DateValue(period(p, today), p.grain());
            case QuarterRef q -> {
                int year = q.year() != 0
                        ? q.year()
                        : q.quarter() >= quarterOf(today) ? today.getYear() : today.getYear() + 1;
                yield new DateValue(LocalDate.of(year, q.quarter() * 3 - 2, 1), Grain.QUARTER);
            }
            case YearRef y -> new DateValue(LocalDate.of(y.year(), 1, 1), Grain.YEAR);
            case DateRef.QuarterInYear q ->
                new DateValue(LocalDate.of(today.getYear() + q.yearShift(), q.quarter() * 3 - 2, 1), Grain.QUARTER);
            case NthWeekdayRef n -> nthWeekday(n, today);
            case EndOf e -> {
                DateValue p = date(e.period(), today);
                yield p == null ? null : new DateValue(lastDay(p), Grain.DAY);
            }
            case StartOf s -> {
                DateValue p = date(s.period(), today);
                yield p == null ? null : new DateValue(p.date(), Grain.DAY);
            }
            case Shifted s -> {
                DateValue p = date(s.base(), today);
                yield p == null
                        ? null
                        : new DateValue(
                                p.date().plus(s.offset().amount(), s.offset().unit()),
                                p.grain().compareTo(Grain.DAY) > 0 && p.grain().compareTo(grainOf(s.offset())) <= 0
                                        ? p.grain()
                                        : Grain.DAY);
            }
        };
    }

    /** A day counted from Western Easter Sunday: that of the year named, or the next one from today on. */
    private static DateValue easter(EasterRef e, LocalDate today) {
        if (e.year() != 0) {
            return new DateValue(easterSunday(e.year()).plusDays(e.days()), Grain.DAY);
        }
        LocalDate d = easterSunday(today.getYear()).plusDays(e.days());
        if (d.isBefore(today)) {
            d = easterSunday(today.getYear() + 1).plusDays(e.days());
        }
        return new DateValue(d, Grain.DAY);
    }

    /** Easter Sunday of the Gregorian calendar (the anonymous Gregorian computus, Meeus/Jones/Butcher). */
    static LocalDate easterSunday(int year) {
        int a = year % 19;
        int b = year / 100;
        int c = year % 100;
        int d = b / 4;
        int e = b % 4;
        int f = (b + 8) / 25;
        int g = (b - f + 1) / 3;
        int h = (19 * a + b - d - g + 15) % 30;
        int i = c / 4;
        int k = c % 4;
        int l = (32 + 2 * e + 2 * i - h - k) % 7;
        int m = (a + 11 * h + 22 * l) / 451;
        int month = (h + l - 7 * m + 114) / 31;
        int day = (h + l - 7 * m + 114) % 31 + 1;
        return LocalDate.of(year, month, day);
    }

    private static Grain grainOf(Offset o) {
        return switch (o.unit()) {
            case WEEKS -> Grain.WEEK;
            case MONTHS -> Grain.MONTH;
            case YEARS -> Grain.YEAR;
            default -> Grain.DAY;
        };
    }

    private DateValue nthDay(NthDayOf n, LocalDate today) {
        DateValue p = date(n.period(), today);
        if (p == null) {
            return null;
        }
        LocalDate first = p.date();
        LocalDate last = lastDayOf(p);
        LocalDate d = n.n() > 0 ? first.plusDays(n.n() - 1L) : last.plusDays(n.n() + 1L);
        return d.isBefore(first) || d.isAfter(last) ? null : new DateValue(d, Grain.DAY);
    }

    private DateValue nthWeek(NthWeekOf n, LocalDate today) {
        DateValue p = date(n.period(), today);
        if (p == null) {
            return null;
        }
        LocalDate week = n.n() > 0
                ? startOfWeek(p.date()).plusWeeks(n.n() - 1L)
                : startOfWeek(lastDayOf(p)).plusWeeks(n.n() + 1L);
        return new DateValue(week, Grain.WEEK);
    }

    /**
     * The date that falls on the weekday said with it, nearest to today, past or future (the future one
     * when two are as near): "Sunday, Feb 10" is the Feb 10 that is a Sunday closest to now. A dated
     * year only confirms.
     */
    private DateValue withWeekday(WithWeekday w, LocalDate today) {
        LocalDate best = null;
        if (w.date() instanceof CalendarDate c && c.year() == 0) {
            for (int year = today.getYear() - 30; year <= today.getYear() + 30; year++) {
                if (c.month() == 2 && c.day() == 29 && !java.time.Year.isLeap(year)) {
                    continue;
                }
                best = nearer(best, LocalDate.of(year, c.month(), c.day()), w.day(), today);
            }
        } else if (w.date() instanceof DayOfMonthRef m && !m.relativeMonth()) {
            LocalDate month = today.withDayOfMonth(1).minusMonths(60);
            for (int k = 0; k <= 120; k++, month = month.plusMonths(1)) {
                if (m.day() <= month.lengthOfMonth()) {
                    best = nearer(best, month.withDayOfMonth(m.day()), w.day(), today);
                }
            }
        }
        return best != null ? new DateValue(best, Grain.DAY) : date(w.date(), today);
    }

    /** {@code d} if it falls on {@code day} and is nearer to today than {@code best}; else {@code best}. */
    private static LocalDate nearer(LocalDate best, LocalDate d, DayOfWeek day, LocalDate today) {
        if (d.getDayOfWeek() != day) {
            return best;
        }
        if (best == null) {
            return d;
        }
        long distance = Math.abs(ChronoUnit.DAYS.between(today, d));
        long bestDistance = Math.abs(ChronoUnit.DAYS.between(today, best));
        return distance < bestDistance || (distance == bestDistance && d.isAfter(best)) ? d : best;
    }

    private LocalDate weekday(WeekdayRef w, LocalDate today) {
        int ahead = Math.floorMod(w.day().getValue() - today.getDayOfWeek().getValue(), 7);
        return switch (w.mode()) {
            case NEXT -> today.plusDays(ahead == 0 ? 7 : ahead);
            case NEXT_SAID ->
                nextWeekday == NextWeekday.FOLLOWING
                        ? startOfWeek(today)
                                .plusWeeks(1)
                                .plusDays(Math.floorMod(w.day().getValue() - weekStart.getValue(), 7))
                        : today.plusDays(ahead == 0 ? 7 : ahead);
            case THIS -> today.plusDays(ahead);
            case LAST -> {
                int back =
                        Math.floorMod(today.getDayOfWeek().getValue() - w.day().getValue(), 7);
                yield today.minusDays(back == 0 ? 7 : back);
            }
            case IN_WEEK ->
                startOfWeek(today)
                        .plusWeeks(w.weeks())
                        .plusDays(Math.floorMod(w.day().getValue() - weekStart.getValue(), 7));
        };
    }

    private LocalDate startOfWeek(LocalDate day) {
        return day.with(TemporalAdjusters.previousOrSame(weekStart));
    }

    private static DateValue calendarDate(CalendarDate c, LocalDate today) {
        if (c.year() != 0) {
            return new DateValue(LocalDate.of(c.year(), c.month(), c.day()), Grain.DAY);
        }
        for (int year = today.getYear(); year < today.getYear() + 9; year++) {
            if (c.month() == 2 && c.day() == 29 && !java.time.Year.isLeap(year)) {
                continue;
            }
            LocalDate d = LocalDate.of(year, c.month(), c.day());
            if (!d.isBefore(today)) {
                return new DateValue(d, Grain.DAY);
            }
        }
        return null;
    }

    private static DateValue dayOfMonth(DayOfMonthRef d, LocalDate today) {
        if (d.relativeMonth()) {
            LocalDate month = today.withDayOfMonth(1).plusMonths(d.months());
            return d.day() > month.lengthOfMonth() ? null : new DateValue(month.withDayOfMonth(d.day()), Grain.DAY);
        }
        LocalDate month = today.withDayOfMonth(1);
        for (int k = 0; k < 13; k++, month = month.plusMonths(1)) {
            if (d.day() <= month.lengthOfMonth()) {
                LocalDate candidate = month.withDayOfMonth(d.day());
                if (!candidate.isBefore(today)) {
                    return new DateValue(candidate, Grain.DAY);
                }
            }
        }
        return null;
    }

    private static LocalDate month(MonthRef m, LocalDate today) {
        if (m.year() != 0) {
            return LocalDate.of(m.year(), m.month(), 1);
        }
        int current = today.getMonthValue();
        int year = today.getYear();
        if (m.shift() < 0) {
            return LocalDate.of(m.month() < current ? year : year - 1, m.month(), 1);
        }
        boolean thisYear = m.shift() == 0 ? m.month() >= current : m.month() > current;
        return LocalDate.of(thisYear ? year : year + 1, m.month(), 1);
    }

    private LocalDate period(PeriodRef p, LocalDate today) {
        return switch (p.grain()) {
            case WEEK -> startOfWeek(today).plusWeeks(p.shift());
            case MONTH -> today.withDayOfMonth(1).plusMonths(p.shift());
            case QUARTER ->
                LocalDate.of(today.getYear(), quarterOf(today) * 3 - 2, 1).plusMonths(3L * p.shift());
            case YEAR -> LocalDate.of(today.getYear() + p.shift(), 1, 1);
            default -> today.plusDays(p.shift());
        };
    }

    private static int quarterOf(LocalDate day) {
        return (day.getMonthValue() - 1) / 3 + 1;
    }

    private DateValue nthWeekday(NthWeekdayRef n, LocalDate today) {
        DateValue month = date(n.month(), today);
        if (month == null) {
            return null;
        }
        LocalDate day = nthInMonth(month.date(), n.n(), n.day());
        boolean floating = n.month() instanceof MonthRef m && m.year() == 0;
        if (floating && (day == null || day.isBefore(today))) {
            day = nthInMonth(month.date().plusYears(1), n.n(), n.day());
        }
        return day == null ? null : new DateValue(day, Grain.DAY);
    }

    private static LocalDate nthInMonth(LocalDate firstOfMonth, int n, DayOfWeek day) {
        if (n < 0) {
            return firstOfMonth.with(TemporalAdjusters.lastInMonth(day));
        }
        LocalDate d = firstOfMonth.with(TemporalAdjusters.dayOfWeekInMonth(n, day));
        return d.getMonth() == firstOfMonth.getMonth() ? d : null;
    }

    /** The last day of a period: a week's, a month's, a quarter's or a year's; a day is its own. */
    private static LocalDate lastDayOf(DateValue p) {
        return switch (p.grain()) {
            case WEEK -> p.date().plusDays(6);
            case MONTH -> p.date().with(TemporalAdjusters.lastDayOfMonth());
            case QUARTER -> p.date().plusMonths(2).with(TemporalAdjusters.lastDayOfMonth());
            case YEAR -> p.date().with(TemporalAdjusters.lastDayOfYear());
            default -> p.date();
        };
    }

    /** The last day of a period; the "end of the week" is its Friday, the end of the working week. */
    private LocalDate lastDay(DateValue p) {
        return switch (p.grain()) {
            case WEEK -> p.date().with(TemporalAdjusters.nextOrSame(DayOfWeek.FRIDAY));
            case MONTH -> p.date().with(TemporalAdjusters.lastDayOfMonth());
            case QUARTER -> p.date().plusMonths(2).with(TemporalAdjusters.lastDayOfMonth());
            case YEAR -> p.date().with(TemporalAdjusters.lastDayOfYear());
            default -> p.date();
        };
    }

    // ---- intervals --------------------------------------------------------------------------

    private Optional<TimeExpression> interval(IntervalParse p, String text, Span span) {
        InstantSpec from = p.from().copy();
        InstantSpec to = p.to().copy();
        share(from, to);
        if (from.time != null && to.time != null && from.time.ambiguous() && from.partOfDay == null) {
            if (to.time.ambiguous() && to.partOfDay == null) {
                from.time = fixed(from.time, daytimeHour(from.time.hour()));
                if (from.date == null && isPast(from)) {
                    from.date = new RelativeDay(1);
                    to.date = from.date;
                }
            } else {
                int toHour = hour24(to.time, to.partOfDay);
                int best = -1;
                for (int h : new int[] {from.time.hour() % 12, from.time.hour() % 12 + 12}) {
                    if (h <= toHour && (h >= 7 || best < 0)) {
                        best = h;
                    }
                }
                from.time = fixed(from.time, best < 0 ? daytimeHour(from.time.hour()) : best);
            }
        }
        Resolved start = instant(from, now);
        if (start == null) {
            return Optional.empty();
        }
        if (to.time != null && to.time.ambiguous() && to.partOfDay == null && from.time != null) {
            int fromHour = start.value().getHour();
            int chosen = -1;
            for (int h : new int[] {to.time.hour() % 12, to.time.hour() % 12 + 12}) {
                if (chosen < 0
                        && (h > fromHour
                                || (h == fromHour
                                        && to.time.minute() > start.value().getMinute()))) {
                    chosen = h;
                }
            }
            to.time = fixed(to.time, chosen < 0 ? to.time.hour() % 12 : chosen);
        }
        Resolved end = instant(to, now);
        if (end == null) {
            return Optional.empty();
        }
        if (end.value().isBefore(start.value())) {
            Resolved later = instant(to, start.value());
            if (later != null) {
                end = later;
            }
            if (end.value().isBefore(start.value()) && to.time != null && !hasExplicitDay(p.to())) {
                end = new Resolved(end.value().plusDays(1), end.grain());
            }
        }
        if (end.value().isBefore(start.value())) {
            return Optional.empty(); // "from 3pm to the 6th": no reading puts the end after the start
        }
        return Optional.of(interval(text, span, start, end));
    }

    private TimeExpression.Interval interval(String text, Span span, Resolved start, Resolved end) {
        return new TimeExpression.Interval(
                text,
                span,
                local(start.value()),
                local(end.value()),
                Grain.finer(start.grain(), end.grain()),
                local(over(end)));
    }

    /** When what a value names is over: the end of its day, week… for a date; the instant itself for a time. */
    private static ZonedDateTime over(Resolved r) {
        return switch (r.grain()) {
            case SECOND, MINUTE, HOUR -> r.value();
            case DAY -> r.value().plusDays(1);
            case WEEK -> r.value().plusWeeks(1);
            case MONTH -> r.value().plusMonths(1);
            case QUARTER -> r.value().plusMonths(3);
            case YEAR -> r.value().plusYears(1);
        };
    }

    /**
     * "tomorrow at 11 for 90 minutes": from the instant for so long. A length of days or more ("from
     * the 3rd for a week") ends on its last day, at day grain.
     */
    private Optional<TimeExpression> lasting(LastingParse p, String text, Span span) {
        Resolved start = instant(p.from(), now);
        if (start == null) {
            return Optional.empty();
        }
        Offset length = p.length();
        if (length.dateBased()) {
            LocalDate first = start.value().toLocalDate();
            LocalDate last = first.plus(length.amount(), length.unit()).minusDays(1);
            if (last.isBefore(first)) {
                return Optional.empty();
            }
            ZoneId zone = start.value().getZone();
            return Optional.of(interval(
                    text,
                    span,
                    new Resolved(first.atStartOfDay(zone), Grain.DAY),
                    new Resolved(last.atStartOfDay(zone), Grain.DAY)));
        }
        ZonedDateTime to = start.value().plus(length.amount(), length.unit());
        Grain grain = switch (length.unit()) {
            case SECONDS -> Grain.SECOND;
            case MINUTES -> length.amount() % 60 == 0 ? Grain.HOUR : Grain.MINUTE;
            default -> Grain.HOUR;
        };
        return Optional.of(interval(text, span, start, new Resolved(to, Grain.finer(start.grain(), grain))));
    }

    private static boolean hasExplicitDay(InstantSpec s) {
        return s.date != null || s.offset != null;
    }

    private boolean isPast(InstantSpec s) {
        Resolved r = instant(s, now);
        return r == null || r.value().isBefore(now);
    }

    /** Carries the date, part of day, meridiem and zone said once to both ends: "from 2 to 4pm tomorrow". */
    private static void share(InstantSpec from, InstantSpec to) {
        if (to.date == null && to.offset == null && from.date != null) {
            to.date = from.date;
        } else if (from.date == null && from.offset == null && to.date != null && from.time != null) {
            from.date = to.date;
        }
        if (to.offset == null && from.offset != null && from.offset.dateBased() && to.date == null) {
            to.offset = from.offset;
        }
        if (from.zone == null) {
            from.zone = to.zone;
        } else if (to.zone == null) {
            to.zone = from.zone;
        }
        if (from.time != null && to.time != null) {
            if (from.partOfDay == null && to.partOfDay != null && from.time.ambiguous()) {
                if (to.partOfDay.hour24(from.time.hour()) <= to.partOfDay.hour24(to.time.hour())) {
                    from.partOfDay = to.partOfDay;
                }
            } else if (to.partOfDay == null && from.partOfDay != null && to.time.ambiguous()) {
                if (from.partOfDay.hour24(to.time.hour()) >= from.partOfDay.hour24(from.time.hour())) {
                    to.partOfDay = from.partOfDay;
                }
            }
            if (from.time.ambiguous() && to.time.meridiem() != ClockTime.Meridiem.NONE) {
                int f = from.time.hour() % 12;
                int t = to.time.hour() % 12;
                from.time = from.time.withMeridiem(f <= t ? to.time.meridiem() : ClockTime.Meridiem.AM);
            }
        }
    }

    private static int hour24(ClockTime t, PartOfDay pod) {
        return pod != null && t.meridiem() == ClockTime.Meridiem.NONE && !t.twentyFourHour()
                ? pod.hour24(t.hour())
                : t.hour24();
    }

    private static ClockTime fixed(ClockTime t, int hour24) {
        return new ClockTime(hour24, t.minute(), t.second(), ClockTime.Meridiem.NONE, true, t.grain());
    }

    private TimeExpression weekend(WeekendParse p, String text, Span span) {
        LocalDate today = now.toLocalDate();
        DayOfWeek first = weekStart == DayOfWeek.SUNDAY ? DayOfWeek.FRIDAY : DayOfWeek.SATURDAY;
        LocalDate start = today.with(TemporalAdjusters.previousOrSame(first));
        if (start.plusDays(1).isBefore(today)) {
            start = today.with(TemporalAdjusters.nextOrSame(first));
        }
        start = start.plusWeeks(p.weeks());
        ZoneId zone = now.getZone();
        return interval(
                text,
                span,
                new Resolved(start.atStartOfDay(zone), Grain.DAY),
                new Resolved(start.plusDays(1).atStartOfDay(zone), Grain.DAY));
    }

    // ---- recurrences ------------------------------------------------------------------------

    private Optional<TimeExpression> recurrence(RecurrenceParse p, String text, Span span) {
        ZoneId zone = now.getZone();
        List<LocalTime> times = new ArrayList<>();
        Grain grain = Grain.DAY;
        for (ClockTime t : p.times()) {
            int hour = t.ambiguous() && p.partOfDay() == null ? daytimeHour(t.hour()) : hour24(t, p.partOfDay());
            times.add(LocalTime.of(hour % 24, t.minute(), t.second()));
            grain = times.size() == 1 ? t.grain() : Grain.finer(grain, t.grain());
        }
        if (times.isEmpty() && p.partOfDay() != null) {
            times.add(LocalTime.of(p.partOfDay().hour(), 0));
            grain = Grain.HOUR;
        }
        times.sort(null);
        Frequency f = p.frequency();
        ZonedDateTime first;
        if (f == Frequency.MINUTELY || f == Frequency.HOURLY) {
            first = now.plus(p.interval(), f == Frequency.MINUTELY ? ChronoUnit.MINUTES : ChronoUnit.HOURS);
            grain = Grain.SECOND; // a nudge counts from now, to the second
        } else {
            first = firstOccurrence(p, times, zone);
        }
        Optional<ZonedDateTime> until = Optional.empty();
        if (p.until() != null) {
            Resolved u = instant(p.until(), now);
            if (u == null) {
                return Optional.empty();
            }
            until = Optional.of(
                    switch (u.grain()) {
                        case SECOND, MINUTE, HOUR -> u.value();
                        case DAY -> u.value().plusDays(1).minusSeconds(1);
                        default -> u.value().minusSeconds(1);
                    });
        }
        return Optional.of(new TimeExpression.Recurrence(
                text,
                span,
                f,
                p.interval(),
                p.days(),
                p.nth() != 0 ? OptionalInt.of(p.nth()) : OptionalInt.empty(),
                p.dayOfMonth() > 0 ? OptionalInt.of(p.dayOfMonth()) : OptionalInt.empty(),
                p.month() > 0 ? OptionalInt.of(p.month()) : OptionalInt.empty(),
                times,
                until,
                first,
                grain));
    }

    private ZonedDateTime firstOccurrence(RecurrenceParse p, List<LocalTime> times, ZoneId zone) {
        LocalDate day = now.toLocalDate();
        for (int k = 0; k < 800; k++, day = day.plusDays(1)) {
            if (!matches(p, day)) {
                continue;
            }
            if (times.isEmpty()) {
                return day.atStartOfDay(zone);
            }
            for (LocalTime t : times) {
                ZonedDateTime v = ZonedDateTime.of(day, t, zone);
                if (!v.isBefore(now)) {
                    return v;
                }
            }
        }
        return now;
    }

    private static boolean matches(RecurrenceParse p, LocalDate day) {
        if (p.month() > 0 && day.getMonthValue() != p.month()) {
            return false;
        }
        if (!p.days().isEmpty() && !p.days().contains(day.getDayOfWeek())) {
            return false;
        }
        if (p.nth() > 0 && (day.getDayOfMonth() - 1) / 7 + 1 != p.nth()) {
            return false;
        }
        if (p.nth() < 0 && day.getDayOfMonth() + 7 <= day.lengthOfMonth()) {
            return false;
        }
        return p.dayOfMonth() <= 0 || day.getDayOfMonth() == Math.min(p.dayOfMonth(), day.lengthOfMonth());
    }
}
