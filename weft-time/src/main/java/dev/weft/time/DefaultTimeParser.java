package dev.weft.time;

import dev.weft.time.internal.ExpressionFinder;
import java.time.DayOfWeek;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** The {@link TimeParser}; immutable and thread-safe. */
final class DefaultTimeParser implements TimeParser {
    private final Language language;
    private final @Nullable DayOfWeek weekStart;
    private final NextWeekday nextWeekday;

    DefaultTimeParser(Language language, @Nullable DayOfWeek weekStart, NextWeekday nextWeekday) {
        this.language = language;
        this.weekStart = weekStart;
        this.nextWeekday = nextWeekday;
    }

    @Override
    public Optional<TimeExpression> parse(String text, ZonedDateTime now, Language language) {
        return ExpressionFinder.parse(
                checked(text), Objects.requireNonNull(now, "now"), language, weekStart, nextWeekday);
    }

    @Override
    public List<TimeExpression> find(String text, ZonedDateTime now, Language language) {
        return ExpressionFinder.find(
                checked(text), Objects.requireNonNull(now, "now"), language, weekStart, nextWeekday);
    }

    @Override
    public Optional<java.time.Duration> length(String text, Language language) {
        return ExpressionFinder.length(checked(text), language);
    }

    @Override
    public Language language() {
        return language;
    }

    private static String checked(String text) {
        Objects.requireNonNull(text, "text");
        if (text.isBlank()) {
            throw new TimeInputException("text must not be empty");
        }
        return text;
    }
}
