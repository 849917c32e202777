package dev.weft.memo.data;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;

/** Reading the dates tools are given: ISO-8601 with an offset, a local date-time in the user's zone, or a day. */
final class DueDates {
    private DueDates() {}

    /** A date as stored: the text (a local date-time gets the user's offset) and the instant it names. */
    record Due(String text, Instant at, boolean allDay) {}

    /** @throws WeftException {@code E_ARGS_INVALID} naming {@code field} for text that is no ISO-8601 date */
    static Due parse(String field, String text, ZoneId zone) {
        String trimmed = text.trim();
        try {
            if (trimmed.length() == 10) {
                LocalDate day = LocalDate.parse(trimmed);
                return new Due(day.toString(), day.atStartOfDay(zone).toInstant(), true);
            }
            if (trimmed.endsWith("]")) {
                ZonedDateTime zoned = ZonedDateTime.parse(trimmed);
                return new Due(zoned.toOffsetDateTime().toString(), zoned.toInstant(), false);
            }
            try {
                OffsetDateTime at = OffsetDateTime.parse(trimmed);
                return new Due(at.toString(), at.toInstant(), false);
            } catch (DateTimeParseException noOffset) {
                ZonedDateTime local = LocalDateTime.parse(trimmed).atZone(zone);
                return new Due(local.toOffsetDateTime().toString(), local.toInstant(), false);
            }
        } catch (DateTimeParseException e) {
            throw new WeftException(
                    ErrorCode.E_ARGS_INVALID,
                    field + " '" + text + "' is not an ISO-8601 date (2026-11-25T09:00:00+02:00, or 2026-11-25 for a"
                            + " whole day)");
        }
    }
}
