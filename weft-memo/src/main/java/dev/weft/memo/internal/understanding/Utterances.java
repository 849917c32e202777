package dev.weft.memo.internal.understanding;

import dev.weft.language.Typos;
import dev.weft.time.TimeExpression;
import dev.weft.time.TimeParser;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The words of a request as the classifier reads them: lower case, its time expressions as one
 * {@code TIME} word (beside the word itself when the time is said in one word), numbers as {@code NUM}, addresses as {@code EMAIL}, apostrophes and Hebrew
 * geresh dropped ("what's" is "whats"); and the request without the words people say before it
 * ("hey", "um", "ok so", a wake word), for the readers that take its slots.
 */
public final class Utterances {
    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.UNICODE_CHARACTER_CLASS;

    private static final Pattern QUOTES = Pattern.compile("['’׳\"״]");
    private static final Pattern LEAD = Pattern.compile(
            "^(?:(?:hey|hi|yo|ok(?:ay)?|so|um+|uh+|er+m?|hmm+|well|olly|alexa|siri|google|assistant|memo|please|"
                    + "excuse me|quick question|היי|הי|אממ+|אה+|אוקיי|אוקי|טוב|נו|ממו|בבקשה)(?:\\s*[,.!:-]\\s*|\\s+))+",
            FLAGS);
    private static final Pattern EMAIL =
            Pattern.compile("[\\p{L}\\p{N}._%+-]+@[\\p{L}\\p{N}-]+(?:\\.[\\p{L}\\p{N}-]+)+");
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+(?:['’׳\"״][\\p{L}\\p{N}]+)*");
    private static final Pattern NUMBER = Pattern.compile("\\p{N}+(?:st|nd|rd|th)?");

    private static final Pattern POSSESSIVE = Pattern.compile(
            "(?i)\\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|tonight|yesterday|week|"
                    + "weekend|month|year)['’]s\\b");

    private Utterances() {}

    /**
     * {@code text} without the fillers and wake words it starts with (or {@code text} itself when
     * nothing else is left: "hey" alone is a greeting), its common slips and short forms written as
     * the words meant by the language layer ({@link Typos#corrected}: "tmrw", "calender", "עכשו"), so
     * that the classifier, the time grammar and the readers all see the words meant.
     */
    public static String withoutLead(String text) {
        String corrected = Typos.corrected((CharSequence) text.strip());
        String stripped = LEAD.matcher(corrected).replaceFirst("");
        return stripped.isBlank() ? corrected : stripped;
    }

    /**
     * The time expressions of {@code text}, or none when the grammar fails on it: a time it cannot
     * read must not cost the request (nor the classifier's training).
     */
    public static List<TimeExpression> times(
            TimeParser parser, String text, java.time.ZonedDateTime now, dev.weft.time.Language language) {
        try {
            // "Monday's meetings", "tomorrow's alarm": the day, its possessive blanked (same length, so
            // the spans found stand where they stand in the text).
            return parser.find(POSSESSIVE.matcher(text).replaceAll("$1  "), now, language);
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /** The classifier's words of {@code text}, whose time expressions are {@code times}. */
    public static List<String> tokens(String text, List<TimeExpression> times) {
        StringBuilder masked = new StringBuilder(text);
        List<TimeExpression> byEnd = new ArrayList<>(times);
        byEnd.sort(
                Comparator.comparingInt((TimeExpression t) -> t.span().start()).reversed());
        int limit = text.length();
        for (TimeExpression t : byEnd) {
            int start = Math.max(0, t.span().start());
            int end = Math.min(limit, t.span().end());
            if (start < end) {
                // A time said in one word ("tonight", "lunch") keeps the word beside the mark.
                String said = text.substring(start, end).strip();
                masked.replace(start, end, said.contains(" ") ? " \u0001 " : " \u0001 " + said + " ");
                limit = start;
            }
        }
        String plain = EMAIL.matcher(masked).replaceAll(" \u0002 ").toLowerCase(Locale.ROOT);
        List<String> tokens = new ArrayList<>();
        var words = WORD.matcher(plain);
        int at = 0;
        while (at < plain.length()) {
            char c = plain.charAt(at);
            if (c == '\u0001') {
                tokens.add("TIME");
                at++;
            } else if (c == '\u0002') {
                tokens.add("EMAIL");
                at++;
            } else if (words.find(at) && words.start() == at) {
                String word = QUOTES.matcher(words.group()).replaceAll("");
                tokens.add(NUMBER.matcher(word).matches() ? "NUM" : word);
                at = words.end();
            } else {
                at++;
            }
        }
        return tokens;
    }
}
