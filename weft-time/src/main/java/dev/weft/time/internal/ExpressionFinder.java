package dev.weft.time.internal;

import dev.weft.time.Language;
import dev.weft.time.NextWeekday;
import dev.weft.time.Span;
import dev.weft.time.TimeExpression;
import dev.weft.time.internal.Parsed.Match;
import java.time.DayOfWeek;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Runs the grammar of a language over a text and resolves what it reads. Stateless and thread-safe. */
public final class ExpressionFinder {

    private static final int NO_YEAR = 2000;

    private ExpressionFinder() {}

    /** Every expression in the text, in order; {@code weekStart} null means the language's own. */
    public static List<TimeExpression> find(
            String text, ZonedDateTime now, Language language, DayOfWeek weekStart, NextWeekday next) {
        List<Token> tokens = Tokenizer.tokenize(text);
        Language lang = detect(text, language);
        List<TimeExpression> found = find(text, read(tokens, lang), now, lang, weekStart, next, false);
        if (found.isEmpty() && language == Language.AUTO) {
            found = find(text, read(tokens, other(lang)), now, other(lang), weekStart, next, false);
        }
        return found;
    }

    /** The best reading of the whole text; {@code weekStart} null means the language's own. */
    public static Optional<TimeExpression> parse(
            String text, ZonedDateTime now, Language language, DayOfWeek weekStart, NextWeekday next) {
        List<Token> tokens = Tokenizer.tokenize(text);
        Language lang = detect(text, language);
        Optional<TimeExpression> best = parse(text, tokens, now, lang, weekStart, next);
        if (best.isEmpty() && language == Language.AUTO) {
            best = parse(text, tokens, now, other(lang), weekStart, next);
        }
        return best;
    }

    /** How long something lasts, as the text says it; see {@link dev.weft.time.TimeParser#length}. */
    public static Optional<java.time.Duration> length(String text, Language language) {
        List<Token> written = Tokenizer.tokenize(text);
        Language lang = detect(text, language);
        // a length reads no date, so no year of now is needed to read two-digit years
        return grammar(read(written, lang), lang, false, NO_YEAR)
                .firstLength()
                .filter(o -> o.amount() > 0 && o.unit().compareTo(ChronoUnit.WEEKS) <= 0)
                .map(o -> o.unit().getDuration().multipliedBy(o.amount()));
    }

    private static Optional<TimeExpression> parse(
            String text, List<Token> written, ZonedDateTime now, Language lang, DayOfWeek weekStart, NextWeekday next) {
        List<Token> tokens = read(written, lang);
        int last = tokens.size();
        while (last > 0 && tokens.get(last - 1).kind() == Token.Kind.SYMBOL) {
            last--; // closing punctuation: "tomorrow at 9."
        }
        if (last == 0) {
            return Optional.empty();
        }
        Grammar whole = grammar(tokens, lang, true, now.getYear());
        Match m = whole.parseAt(0);
        if (m != null && m.end() >= last) {
            Optional<TimeExpression> e = resolve(text, tokens, m, now, whole, weekStart, next);
            if (e.isPresent()) {
                return e;
            }
        }
        TimeExpression best = null;
        for (TimeExpression e : find(text, tokens, now, lang, weekStart, next, false)) {
            int length = e.span().end() - e.span().start();
            if (best == null || length > best.span().end() - best.span().start()) {
                best = e;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Every expression in tokens already {@link #read} for the language. */
    private static List<TimeExpression> find(
            String text,
            List<Token> tokens,
            ZonedDateTime now,
            Language lang,
            DayOfWeek weekStart,
            NextWeekday next,
            boolean lenient) {
        Grammar g = grammar(tokens, lang, lenient, now.getYear());
        List<TimeExpression> out = new ArrayList<>();
        int i = 0;
        while (i < tokens.size()) {
            Match m = g.parseAt(i);
            if (m == null) {
                i++;
                continue;
            }
            resolve(text, tokens, m, now, g, weekStart, next).ifPresent(out::add);
            i = m.end();
        }
        return List.copyOf(out);
    }

    private static Optional<TimeExpression> resolve(
            String text,
            List<Token> tokens,
            Match m,
            ZonedDateTime now,
            Grammar g,
            DayOfWeek weekStart,
            NextWeekday next) {
        int start = tokens.get(m.start()).start();
        int end = tokens.get(m.end() - 1).end();
        Resolver resolver = new Resolver(now, weekStart != null ? weekStart : g.weekStart(), next);
        return resolver.resolve(m.parsed(), text.substring(start, end), new Span(start, end));
    }

    /** The tokens as the language's grammar reads them: English time words mended ({@link Spelling}). */
    private static List<Token> read(List<Token> tokens, Language lang) {
        return lang == Language.ENGLISH ? Spelling.english(tokens) : tokens;
    }

    /** One engine for every language; what differs between languages is their lexicons. */
    private static Grammar grammar(List<Token> tokens, Language lang, boolean lenient, int year) {
        Lexicon lexicon = switch (lang) {
            case HEBREW -> HebrewLexicon.INSTANCE;
            case RUSSIAN -> RussianLexicon.INSTANCE;
            case ENGLISH, AUTO -> EnglishLexicon.INSTANCE;
        };
        return new Engine(tokens, lenient, year, lexicon);
    }

    private static Language detect(String text, Language language) {
        if (language != Language.AUTO) {
            return language;
        }
        boolean cyrillic = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Tokenizer.isHebrewLetter(c)) {
                return Language.HEBREW;
            }
            cyrillic |= c >= '\u0400' && c <= '\u052F'; // Cyrillic and its supplement
        }
        return cyrillic ? Language.RUSSIAN : Language.ENGLISH;
    }

    /** The language tried when AUTO's first choice reads nothing: English for Hebrew or Russian text. */
    private static Language other(Language lang) {
        return lang == Language.ENGLISH ? Language.HEBREW : Language.ENGLISH;
    }
}
