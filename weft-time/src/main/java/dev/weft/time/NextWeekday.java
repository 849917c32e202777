package dev.weft.time;

import java.util.Locale;

/**
 * How "next Monday" ("יום שני הבא") is read; a bare "Monday" is always the first one after today.
 *
 * <ul>
 *   <li>{@link #COMING} (the default): the first Monday after today, the same day as "Monday".
 *   <li>{@link #FOLLOWING}: the Monday of next week (weeks start on Monday in English, Sunday in
 *       Hebrew), which skips a Monday still ahead this week.
 * </ul>
 */
public enum NextWeekday {
    COMING,
    FOLLOWING;

    /** The lower-case name used on the command line: {@code coming}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The reading named {@code coming} or {@code following}.
     *
     * @throws TimeInputException for any other name
     */
    public static NextWeekday fromLabel(String label) {
        for (NextWeekday n : values()) {
            if (n.label().equals(label)) {
                return n;
            }
        }
        throw new TimeInputException("unknown next-weekday reading '" + label + "': expected coming or following");
    }
}
