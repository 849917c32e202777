package dev.weft.time;

import java.time.DayOfWeek;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/** A time expression found in a text: an instant, an interval or a recurrence, with where it was. */
public sealed interface TimeExpression {

    /** The words of the expression, as written. */
    String text();

    /** Where the expression sits in the text it was found in. */
    Span span();

    /**
     * One point in time, as precise as its {@code grain}: "tomorrow" is the start of tomorrow with
     * grain day, "at 9" is 9:00 with grain hour.
     */
    record Instant(String text, Span span, ZonedDateTime value, Grain grain) implements TimeExpression {
        public Instant {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(span, "span");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(grain, "grain");
        }
    }

    /**
     * A stretch of time. {@code to} is what the text names as the end, read at the grain: "from 2 to
     * 4pm" ends at 16:00, "Monday to Wednesday" has {@code to} at the start of Wednesday and covers
     * all of it. {@code end} is the instant the stretch is over: 16:00 for "from 2 to 4pm", the start
     * of Thursday for "Monday to Wednesday", the start of the fourth week for "the next 3 weeks".
     */
    record Interval(String text, Span span, ZonedDateTime from, ZonedDateTime to, Grain grain, ZonedDateTime end)
            implements TimeExpression {
        public Interval {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(span, "span");
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(grain, "grain");
            Objects.requireNonNull(end, "end");
            if (to.isBefore(from)) {
                throw new IllegalArgumentException("interval must not end before it starts, was " + from + " to " + to);
            }
            if (end.isBefore(to)) {
                throw new IllegalArgumentException(
                        "interval must not be over before its end, was " + to + " and " + end);
            }
        }

        /** How long the stretch lasts, from {@code from} to {@code end}. */
        public java.time.Duration length() {
            return java.time.Duration.between(from, end);
        }
    }

    /**
     * A repeating time: "every Monday and Thursday at 18:00", "כל שעתיים". {@code first} is the first
     * occurrence after now, with grain {@code grain}.
     */
    record Recurrence(
            String text,
            Span span,
            Frequency frequency,
            int interval,
            List<DayOfWeek> days,
            OptionalInt weekdayOrdinal,
            OptionalInt dayOfMonth,
            OptionalInt month,
            List<LocalTime> times,
            Optional<ZonedDateTime> until,
            ZonedDateTime first,
            Grain grain)
            implements TimeExpression {

        private static final DateTimeFormatter UNTIL = DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'");

        /** How often: the iCalendar frequencies; minutely and hourly ones are nudges. */
        public enum Frequency {
            MINUTELY,
            HOURLY,
            DAILY,
            WEEKLY,
            MONTHLY,
            YEARLY
        }

        /**
         * Validates and copies. {@code weekdayOrdinal} is the n-th (-1: last) of {@code days} in the
         * month ("the first Monday of every month"); {@code times} are the times of day, earliest
         * first.
         */
        public Recurrence {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(span, "span");
            Objects.requireNonNull(frequency, "frequency");
            if (interval < 1) {
                throw new IllegalArgumentException("interval must be positive, was " + interval);
            }
            days = List.copyOf(days);
            Objects.requireNonNull(weekdayOrdinal, "weekdayOrdinal");
            Objects.requireNonNull(dayOfMonth, "dayOfMonth");
            Objects.requireNonNull(month, "month");
            times = List.copyOf(times);
            Objects.requireNonNull(until, "until");
            Objects.requireNonNull(first, "first");
            Objects.requireNonNull(grain, "grain");
        }

        /**
         * The iCalendar (RFC 5545) rule, e.g. {@code FREQ=WEEKLY;BYDAY=MO,TH;BYHOUR=18;BYMINUTE=0}.
         * Days are in ISO order (Monday first); {@code UNTIL} is in UTC. {@link #first()} is the
         * matching DTSTART.
         */
        public String toRrule() {
            StringBuilder r = new StringBuilder("FREQ=").append(frequency.name());
            if (interval > 1) {
                r.append(";INTERVAL=").append(interval);
            }
            month.ifPresent(m -> r.append(";BYMONTH=").append(m));
            if (!days.isEmpty()) {
                r.append(";BYDAY=");
                for (int i = 0; i < days.size(); i++) {
                    r.append(i == 0 ? "" : ",");
                    weekdayOrdinal.ifPresent(r::append);
                    r.append(days.get(i).name(), 0, 2);
                }
            }
            dayOfMonth.ifPresent(d -> r.append(";BYMONTHDAY=").append(d));
            if (!times.isEmpty()) {
                r.append(";BYHOUR=")
                        .append(join(times.stream()
                                .map(LocalTime::getHour)
                                .distinct()
                                .sorted()));
                r.append(";BYMINUTE=")
                        .append(join(times.stream()
                                .map(LocalTime::getMinute)
                                .distinct()
                                .sorted()));
                if (times.stream().anyMatch(t -> t.getSecond() != 0)) {
                    r.append(";BYSECOND=")
                            .append(join(times.stream()
                                    .map(LocalTime::getSecond)
                                    .distinct()
                                    .sorted()));
                }
            }
            until.ifPresent(u -> r.append(";UNTIL=").append(UNTIL.format(u.withZoneSameInstant(ZoneOffset.UTC))));
            return r.toString();
        }

        private static String join(java.util.stream.Stream<Integer> values) {
            return values.map(String::valueOf).collect(java.util.stream.Collectors.joining(","));
        }
    }
}
