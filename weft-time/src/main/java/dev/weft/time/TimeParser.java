package dev.weft.time;

import java.time.DayOfWeek;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds and resolves time expressions in English and Hebrew text. Instances are immutable and
 * thread-safe; the reference time is passed on each call, so tests need no clock.
 *
 * <p>What is left unsaid is resolved by these rules:
 *
 * <ul>
 *   <li>Values are in the zone (or offset) of {@code now}, unless the text names a zone ({@code 8:00
 *       PST}, {@code Europe/London}); then the clock time is read there and converted to the zone of
 *       {@code now}.
 *   <li>An instant's value is the start of its grain: "tomorrow" is 00:00 tomorrow (grain day), "next
 *       month" the 1st of next month (grain month), "next week" the first day of next week (grain
 *       week). Weeks start on Monday in English and on Sunday in Hebrew (see {@link
 *       Builder#weekStart}).
 *   <li>A bare clock time ("at 9", "ב-8") is its next occurrence: today if still ahead, else
 *       tomorrow. Written without am/pm or a part of the day, it is the next such hour in the future,
 *       morning or evening ("at 2" at 14:30 is 02:00 tomorrow); 12 is noon or midnight. With a day named
 *       ("tomorrow at 3", "מחר ב-5"), 7-11 are morning, 12 noon and 1-6 afternoon or evening. A part
 *       of the day decides: "at 8 in the evening" is 20:00. An English "10:30" is ambiguous in the
 *       same way (unless written "08:30" or past 12); a Hebrew "10:30" is on the 24-hour clock.
 *   <li>A part of the day alone stands for an hour: morning 09:00, noon 12:00, afternoon 15:00,
 *       evening ("tonight", "הערב") 19:00, night 21:00 (grain hour).
 *   <li>A weekday alone ("Monday", "ביום שני", "next Monday", "יום שני הבא") is its next occurrence
 *       after today, never today; "this Monday" is today if today is Monday. "next Monday" is the
 *       same by default, or the Monday of next week (see {@link Builder#nextWeekday}). "last Monday" is the
 *       latest one before today; "Tuesday next week" is the Tuesday of next week.
 *   <li>A date without a year is its next occurrence from today on; a month name is this month or the
 *       next such month.
 *   <li>Offsets under a day ("in 15 minutes", "עוד שעתיים") are exact to the second, keeping the
 *       seconds of {@code now} (grain second); offsets of days or more ("in 3 days", "לפני שבוע")
 *       keep the time of day (grain hour).
 *   <li>An interval's {@code to} is the last thing it names, at the grain; its {@code end} is when it
 *       is over: "the next 3 weeks" has {@code to} at the start of the third week and {@code end} at
 *       the end of it.
 *   <li>"end of the month" is its last day; "end of the week" its Friday; "EOD" 17:00.
 *   <li>Spans are UTF-16 offsets into the text, start inclusive and end exclusive.
 * </ul>
 */
public interface TimeParser {

    /** A parser for any language (Hebrew when the text has Hebrew letters, else English). */
    static TimeParser create() {
        return builder().build();
    }

    static Builder builder() {
        return new Builder();
    }

    /** The single best reading of the whole text, with the parser's default language. */
    default Optional<TimeExpression> parse(String text, ZonedDateTime now) {
        return parse(text, now, language());
    }

    /**
     * The single best reading of the whole text: the expression covering it all, or else the longest
     * expression found in it; empty when there is none.
     *
     * @throws TimeInputException when the text is blank
     */
    Optional<TimeExpression> parse(String text, ZonedDateTime now, Language language);

    /** Every expression in the text, in order, with the parser's default language. */
    default List<TimeExpression> find(String text, ZonedDateTime now) {
        return find(text, now, language());
    }

    /**
     * Every expression in the text, in order and not overlapping: "tomorrow at 9" in "remind me
     * tomorrow at 9 to call Dana".
     */
    List<TimeExpression> find(String text, ZonedDateTime now, Language language);

    /** How long something lasts, as the text says it, with the parser's default language. */
    default Optional<java.time.Duration> length(String text) {
        return length(text, language());
    }

    /**
     * How long something lasts, as the text says it: "a 90-minute review", "an hour-long call",
     * "for two hours", "פגישה של שעה וחצי", "למשך 45 דקות". Empty when the text says no length, or
     * one of months or years (no fixed duration); an amount from now ("in 90 minutes") is no length.
     *
     * @throws TimeInputException when the text is blank
     */
    Optional<java.time.Duration> length(String text, Language language);

    /** The language used when a call names none. */
    Language language();

    /** Builds a {@link TimeParser}. */
    final class Builder {
        private Language language = Language.AUTO;
        private DayOfWeek weekStart;
        private NextWeekday nextWeekday = NextWeekday.COMING;

        private Builder() {}

        public Builder language(Language language) {
            this.language = Objects.requireNonNull(language, "language");
            return this;
        }

        /** The first day of the week for every language, instead of Monday (English) and Sunday (Hebrew). */
        public Builder weekStart(DayOfWeek weekStart) {
            this.weekStart = Objects.requireNonNull(weekStart, "weekStart");
            return this;
        }

        /** How "next Monday" is read: the coming Monday (the default) or the Monday of next week. */
        public Builder nextWeekday(NextWeekday nextWeekday) {
            this.nextWeekday = Objects.requireNonNull(nextWeekday, "nextWeekday");
            return this;
        }

        public TimeParser build() {
            return new DefaultTimeParser(language, weekStart, nextWeekday);
        }
    }
}
