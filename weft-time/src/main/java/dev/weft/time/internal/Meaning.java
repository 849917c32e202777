package dev.weft.time.internal;

import dev.weft.time.TimeExpression.Recurrence.Frequency;
import java.time.DayOfWeek;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * What a word means to the {@link Engine}, whatever the language: a {@link Lexicon} maps each of its
 * word forms to one of these, and the engine's rules are written over them alone.
 */
sealed interface Meaning {

    /** One weekday or a set of them ("weekdays", "будни"); plural forms ("Mondays", "понедельникам") recur. */
    record Weekdays(List<DayOfWeek> days, boolean plural) implements Meaning {
        public Weekdays {
            days = List.copyOf(days);
        }

        DayOfWeek day() {
            return days.getFirst();
        }
    }

    record Month(int month) implements Meaning {}

    /** A unit of time: "minute", "часа", "недели". */
    record Unit(ChronoUnit unit) implements Meaning {}

    /** A number said as a word: "five", "пять", "полтора" (1.5), "пару" (2). */
    record Amount(double value) implements Meaning {}

    /**
     * A vague amount: "couple" (2), "few" and "several" (3). Not a number: "a couple of weeks" is
     * read by rules that expect it, never as a cardinal.
     */
    record Some(double value) implements Meaning {}

    /** An ordinal word: "fifth", "пятого"; one counted from the end is negative ("הלפני אחרון" is -2). */
    record Ordinal(int value) implements Meaning {}

    /** A day counted from today: "tomorrow" is 1, "позавчера" -2. */
    record Day(int days) implements Meaning {}

    /** A part of the day: "morning", "утром"; {@code today} for words that name today's ("tonight"). */
    record Part(PartOfDay part, boolean today) implements Meaning {}

    /** A part of a day counted from today, in one word or phrase: "last night" is -1 and the night. */
    record DayPart(int days, PartOfDay part) implements Meaning {}

    /** A part of a weekday, this week's, in one word or phrase: "ערב שבת" is Friday evening, "מוצ\"ש" Saturday's. */
    record WeekdayPart(DayOfWeek day, PartOfDay part) implements Meaning {}

    /** A clock time named by a word: "noon" 12:00, "полночь" 00:00. */
    record Clock(int hour) implements Meaning {}

    /** A zone said by a name of the language's own: "שעון ישראל" is Israel's time. */
    record Zone(java.time.ZoneId zone) implements Meaning {}

    /** An amount of time in one word: "полчаса" is 30 minutes. */
    record Length(long amount, ChronoUnit unit) implements Meaning {}

    /** A day a month names by a word: "the ides of March" is its 15th, "the nones" its 7th. */
    enum NamedDay implements Meaning {
        /** The 15th of March, May, July and October, the 13th of the other months. */
        IDES,
        /** Eight days before the ides. */
        NONES;

        int dayOf(int month) {
            int ides = month == 3 || month == 5 || month == 7 || month == 10 ? 15 : 13;
            return this == IDES ? ides : ides - 8;
        }
    }

    /**
     * A word that is a recurrence on its own: "daily", "quarterly" (every 3 months), "ежедневно",
     * "nightly" (every day, at night: {@code part}, else null).
     */
    record Often(Frequency frequency, int interval, PartOfDay part) implements Meaning {
        Often(Frequency frequency) {
            this(frequency, 1, null);
        }

        Often(Frequency frequency, int interval) {
            this(frequency, interval, null);
        }
    }

    /** A day named for what falls on it: "Bastille Day", "ליל הסדר", "Новый год". */
    record Holiday(DateRef date) implements Meaning {}

    /** The words that join the others; each language says them its own way. */
    enum Role implements Meaning {
        /** "now", "сейчас". */
        NOW,
        /** Before an amount that is ahead of now: "in", "через". */
        IN,
        /** After an amount that is behind now: "ago", "назад". */
        AGO,
        /** Before a clock time or a day: "at", "в". */
        AT,
        /** Before a day or how long: "on", "на". */
        ON,
        /** The start of an interval: "from", "с". */
        FROM,
        /** The end of an interval: "to", "до", "по". */
        TO,
        /** The end of a recurrence: "until", "до". */
        UNTIL,
        NEXT,
        LAST,
        THIS,
        EVERY,
        AND,
        /** "weekend", "выходные". */
        WEEKEND,
        /** A day of the month said as a word after its number: "числа" in "5-го числа". */
        DAY_OF_MONTH,
        /** Hedges that do not change an amount: "about", "около", "примерно". */
        ABOUT,
        /** "half" said after an amount: "с половиной" in "через 2 с половиной часа". */
        AND_A_HALF,
        /** Words that only link others: "the", "of", "של". */
        LINK,
        /** The time of day it is now: "at this time", "בשעה זו", "в это время". */
        THIS_TIME,
        /** "after" in "the month after next", "שאחרי". */
        AFTER,
        /** "before" in "the month before last", "שלפני". */
        BEFORE,
        /** After an amount that is ahead of now: "from now", "later", "hence". */
        AHEAD,
        /** Before an amount that is added to now: "another", "a further". */
        MORE,
        /** "time" after an amount ahead: "in 3 hours' time". */
        TIME,
        /** After an amount, a hedge that leaves it as it is: "or so", "ish", "tops". */
        OR_SO,
        /** A quarter of a year: "quarter", "רבעון", "квартал". */
        QUARTER,
        /** The end of a period: "конце" in "в конце месяца". */
        END,
        /** The start of a period: "תחילת" in "תחילת החודש הבא". */
        START,
        /** The middle of a month, its 15th: "אמצע" in "באמצע יוני". */
        MIDDLE,
        /** The day before a Jewish holiday: "erev", "ערב". */
        EVE,
        /** A word of {@link #NEXT} that means the nearest one ahead, not the one after it: "coming", "following". */
        COMING,
        /** "the closest Tuesday to June 3rd". */
        NEAREST,
        /** "the rest of the week", "the remainder of the day". */
        REST,
        /** Between an amount and its unit, leaving it as it is: "2 more hours", "5 extra minutes". */
        EXTRA,
        /** Before how long something lasts: "for", "lasting", "на". */
        LASTING,
        /** The start of an interval whose ends are joined by {@link #AND}: "between". */
        BETWEEN,
        /** "other" in "every other week": every second one. */
        OTHER,
        /** Ten said after a number below it, which it adds to: "עשרה" in "שלוש עשרה" (13). */
        TEEN,
        /** "and a quarter" said after an amount of hours: "ורבע" in "שעתיים ורבע". */
        AND_A_QUARTER,
        /** The day after, in one word, before the day it follows: "למחרת" in "למחרת ראש השנה". */
        MORROW,
        /** After an hour, that it is a clock's: "o'clock". */
        OCLOCK,
        /** One time in each unit, before "a", "per" or "every" and the unit: "once" in "once a week", "פעם" in "פעם בשבוע". */
        ONCE,
        /** Each one of a unit, after {@link #ONCE}: "per" in "once per month". */
        PER,
        /** A day said whole, which a day read alone already is: "all day", "the whole day". */
        ALL_DAY,
        /** Between minutes and the hour they follow: "past" in "ten past six". */
        PAST_HOUR,
        /** Between minutes and the hour they come before: "to" in "quarter to 12". */
        TO_HOUR,
        /** A zero said as a word before minutes under ten: "oh" in "nine oh five". */
        OH,
        /** After a clock time, that it is exact: "sharp". */
        SHARP,
        /** A letter written between an hour and its minutes: "h" in "14h45". */
        HOUR_MARK,
        /** Before a zone, that the time is by its clock: "לפי UTC", "שעון UTC". */
        CLOCK_OF
    }
}
