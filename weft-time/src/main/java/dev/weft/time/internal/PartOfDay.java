package dev.weft.time.internal;

/** A part of the day, with the hour it stands for when no clock time is given. */
enum PartOfDay {
    MORNING(9, 12),
    NOON(12, 14),
    AFTERNOON(15, 18),
    EVENING(19, 24),
    NIGHT(21, 24);

    private final int hour;
    private final int endHour;

    PartOfDay(int hour, int endHour) {
        this.hour = hour;
        this.endHour = endHour;
    }

    int hour() {
        return hour;
    }

    /** The hour at which this part of the day is over. */
    int endHour() {
        return endHour;
    }

    /** The 24-hour reading of an hour written with this part of the day: "8 in the evening" is 20. */
    int hour24(int written) {
        return switch (this) {
            case MORNING -> written == 12 ? 0 : written;
            case NOON -> written <= 5 ? written + 12 : written;
            case AFTERNOON -> written < 12 ? written + 12 : written;
            case EVENING -> written < 12 ? written + 12 : written == 12 ? 24 : written;
            case NIGHT -> written == 12 ? 24 : written >= 6 && written < 12 ? written + 12 : written;
        };
    }
}
