package dev.weft.time.internal;

import dev.weft.time.TimeExpression.Recurrence.Frequency;
import java.time.DayOfWeek;
import java.util.ArrayList;
import java.util.List;

/** Collects the parts of a recurrence while a grammar reads it. */
final class RecurrenceBuilder {
    Frequency frequency;
    int interval = 1;
    final List<DayOfWeek> days = new ArrayList<>();
    int nth;
    int dayOfMonth;
    int month;
    final List<ClockTime> times = new ArrayList<>();
    PartOfDay partOfDay;
    InstantSpec until;

    RecurrenceBuilder(Frequency frequency) {
        this.frequency = frequency;
    }

    RecurrenceBuilder interval(int n) {
        this.interval = n;
        return this;
    }

    RecurrenceBuilder days(List<DayOfWeek> list) {
        for (DayOfWeek d : list) {
            if (!days.contains(d)) {
                days.add(d);
            }
        }
        days.sort(null);
        return this;
    }

    Parsed.RecurrenceParse build() {
        return new Parsed.RecurrenceParse(
                frequency, interval, List.copyOf(days), nth, dayOfMonth, month, List.copyOf(times), partOfDay, until);
    }
}
