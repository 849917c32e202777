package dev.weft.time.internal;

import dev.weft.time.internal.Meaning.Role;
import java.time.DayOfWeek;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The words of one language as data for the {@link Engine}: each written form of a word and what it
 * means, and the few conventions the language keeps (week start, day-first dates, 24-hour clocks).
 * A language whose words inflect lists a stem with its endings ({@link #forms}); what no table can
 * say is a hook a subclass overrides. Built once, immutable and thread-safe.
 */
abstract class Lexicon {

    /** Each form's meanings, in the order the lexicon gave them: the first is the word's usual one. */
    private final Map<String, List<Meaning>> words = new HashMap<>();

    private final Map<String, PartOfDay> afterClock = new HashMap<>();
    private final Map<String, PartOfDay> partNames = new HashMap<>();
    private final Set<String> partsAnyDayAfter = new HashSet<>();
    private final Set<String> ordinalEndings = new HashSet<>();
    /** Phrases of several words, by their first word, longest first. */
    private final Map<String, List<Phrase>> phrases = new HashMap<>();
    /** Every role some word has: a rule asks it before it looks a word up ({@link #means}). */
    private final Set<Role> wordRoles = EnumSet.noneOf(Role.class);
    /** Every role some word has other than as its usual meaning ("around" is a hedge, and "at" too). */
    private final Set<Role> otherRoles = EnumSet.noneOf(Role.class);
    /** Whether some word is both an ordinal and a number (Hebrew's "שני"): only then a rule asks an ordinal for its number. */
    private boolean ordinalsCount;
    /** Every role some phrase has: a rule asks it before it reads phrases ({@link #phraseMeans}). */
    private final Set<Role> phraseRoles = EnumSet.noneOf(Role.class);
    /** Whether some phrase says a recurrence ("יום יום"): only then a recurrence's head reads a phrase at a word. */
    private boolean phrasesSayOften;
    /** Whether some phrase names one weekday ("יום שני"): else only a word names one. */
    private boolean phrasesNameAWeekday;
    /** Whether some phrase names weekdays in the plural ("ימי שני"): a recurrence's head. */
    private boolean phrasesNamePluralWeekdays;
    /** Whether some phrase names a time ("end of the day"): else only a word does. */
    private boolean phrasesNameAClock;
    /** Words after which a bare number said after a day is its hour ("Friday 9 at the office"). */
    private final Set<String> afterBareHour = new HashSet<>();

    /** Words that mean something only together: "at this time". */
    record Phrase(List<String> words, Meaning meaning) {}

    /** The families of the engine this language reads; the others it reads in its own grammar, for now. */
    abstract Set<Engine.Family> families();

    /** The first day of the week, for "next week" and the weekend. */
    abstract DayOfWeek weekStart();

    /** Whether {@code 5/3} is the 5th of March. */
    abstract boolean dayFirst();

    /** Whether {@code 9:30} is read on a 24-hour clock (else it is morning or evening, like a bare hour). */
    abstract boolean clock24();

    /** Whether an interval may be said with no "from" before it ("2 to 4pm", "9-11am"). */
    boolean intervalWithoutFrom() {
        return false;
    }

    /** Whether a unit said with no amount is one of it ("через неделю"); English says "a week". */
    boolean bareUnitIsOne() {
        return true;
    }

    /** Whether this unit's word said with no amount is one of it: in Hebrew only a singular ("בעוד שעה", not "דקות"). */
    boolean bareUnitIsOne(String word) {
        return bareUnitIsOne();
    }

    /** Which ordinals said with no month are a day of this month. */
    enum OrdinalsAlone {
        /** None: in Hebrew "שני" is Monday or "second", a day is said "ה-5" ({@link #ordinalByPrefix}). */
        NONE,
        /**
         * A number with its ending or after "the" ("21st", "the 21"); a word only so linked and before
         * "of" ("the fifth of"): "the fifth" alone is seldom a date.
         */
        NUMBERS,
        /** Numbers and words alike: "пятого", "5-го". */
        ALL
    }

    /** Which ordinals said with no month are a day of this month. */
    OrdinalsAlone ordinalsAlone() {
        return OrdinalsAlone.ALL;
    }

    /** Whether a number written with this prefix is a day of the month by it alone ("ה-13": the 13th). */
    boolean ordinalByPrefix(String numberPrefix) {
        return false;
    }

    /** Whether a number alone after a monthly recurrence is its day ("כל חודש ב-15"), not an hour. */
    boolean numberAfterMonthlyIsItsDay() {
        return false;
    }

    /** Whether a number written with this prefix is a year when it can be one ("ב-2027": in 2027). */
    boolean yearMarkedBy(String numberPrefix) {
        return false;
    }

    /** Whether the word for a year said before a year's number names it ("שנת 2027"); else a count. */
    boolean yearAfterUnit(String word) {
        return false;
    }

    /** Whether a clock's hour and minutes may be written as one number ("1430 hours", "230pm"). */
    boolean hoursAndMinutesInOneNumber() {
        return false;
    }

    /** Whether "half" said right before an hour is half past it ("half four" is 4:30, as the British say it). */
    boolean halfBeforeHourIsPast() {
        return false;
    }

    /**
     * Whether a bare number next to a day is its hour: before "tomorrow" or a weekday ("8 tomorrow",
     * "9 on Monday"), or after a day where nothing after it counts something ("Friday 9", "Dec 5 at
     * 3"; the words that may follow it are {@link #saidAfterBareHour}).
     */
    boolean bareHoursNextToDays() {
        return false;
    }

    /** Whether a bare number said after a day is still its hour when this word follows it ("Friday 9 tonight"). */
    final boolean saidAfterBareHour(String word) {
        return !afterBareHour.isEmpty() && afterBareHour.contains(fold(word));
    }

    /** Whether "weekend" said with no word before it is read only when it is the whole text. */
    boolean bareWeekendOnlyAlone() {
        return false;
    }

    /**
     * Whether a word is said with the definite article, so that "every" before it means "all of"
     * ("כל השבוע" is the whole week, "כל שבוע" every week).
     */
    boolean definite(String word) {
        return false;
    }

    /**
     * Whether a period's word says "this one" by its form alone: Hebrew's article ("השבוע" is this
     * week), where other languages say a word for it.
     */
    boolean thisByArticle(String word) {
        return false;
    }

    /** The word as the tables hold it: lower case already, a language may fold more (ё to е). */
    String fold(String word) {
        return word;
    }

    /**
     * What a word usually means (the first of its meanings), or null; a language with prefixes or
     * clitics overrides this to strip them.
     */
    Meaning meaning(String word) {
        List<Meaning> ms = words.get(fold(word));
        return ms == null ? null : ms.getFirst();
    }

    /** Every meaning a word has as listed, its usual one first (no prefix stripped); empty when none. */
    final List<Meaning> meanings(String word) {
        return words.getOrDefault(fold(word), List.of());
    }

    /**
     * The meaning of a word of the kind a rule asks for, or null: English "second" is an ordinal to
     * a date and a unit to an amount of time. A meaning found only through {@link #meaning} (a
     * prefix stripped) counts when it is of that kind.
     */
    final <M extends Meaning> M meaning(String word, Class<M> kind) {
        for (Meaning m : words.getOrDefault(fold(word), List.of())) {
            if (kind.isInstance(m)) {
                return kind.cast(m);
            }
        }
        Meaning usual = meaning(word);
        return kind.isInstance(usual) ? kind.cast(usual) : null;
    }

    /** Whether any of a word's meanings is {@code m}, its usual one or another. */
    final boolean means(String word, Meaning m) {
        return (!(m instanceof Role r) || wordRoles.contains(r))
                && words.getOrDefault(fold(word), List.of()).contains(m);
    }

    /** Whether some word of the lexicon means the role other than as its usual meaning: else its usual one says it. */
    final boolean roleBeyondUsual(Role r) {
        return otherRoles.contains(r);
    }

    /** Whether some word of the lexicon means the role, as its usual meaning or another. */
    final boolean wordMeans(Role r) {
        return wordRoles.contains(r);
    }

    /** Whether some phrase of the lexicon names a time ({@link Meaning.Clock}): where none does, only a word can. */
    final boolean phrasesNameAClock() {
        return phrasesNameAClock;
    }

    /** Whether some phrase of the lexicon means the role: where none does, only a word can say it. */
    final boolean phraseMeans(Role r) {
        return phraseRoles.contains(r);
    }

    /** Whether some phrase of the lexicon says how often ({@link Meaning.Often}): where none does, only a word can. */
    final boolean phrasesSayOften() {
        return phrasesSayOften;
    }

    /** Whether a weekday may be named other than by one word meaning it: by a phrase ("יום שני") or by the language's own reading. */
    final boolean weekdaysBeyondWords() {
        return phrasesNameAWeekday || readsOwnDays();
    }

    /**
     * Whether the language reads days of its own ({@link #ownDate}, {@link #ownWeekday}, {@link
     * #ownHoliday}): where not, the engine asks none of those hooks. A lexicon that overrides one says true.
     */
    boolean readsOwnDays() {
        return false;
    }

    /**
     * Whether a phrase may open a recurrence's head at a word that means nothing alone: one says how
     * often, names weekdays in the plural, or names one weekday ({@link #weekdaysBeyondWords}).
     */
    final boolean phrasesOpenRecurrences() {
        return phrasesSayOften || phrasesNamePluralWeekdays || weekdaysBeyondWords();
    }

    /** The phrases that start with a word, longest first (empty when none). */
    List<Phrase> phrasesFrom(String word) {
        return phrases.getOrDefault(fold(word), List.of());
    }

    /** Whether the language writes prefix letters on its words and numbers ({@link #prefixOf}). */
    boolean writesPrefixes() {
        return false;
    }

    /**
     * The letters a language writes before a word, stripped to find its meaning: Hebrew's "ל" of
     * "לשעה" (for an hour); "" when the word is as the tables hold it, as always in most languages.
     */
    String prefixOf(String word) {
        return "";
    }

    /** Whether the prefix of a word or a number says the role: by its first letter, in most that have any. */
    boolean prefixMeans(String prefix, Role r) {
        return !prefix.isEmpty() && prefixLetterMeans(prefix.charAt(0), r);
    }

    /** Whether a prefix letter ({@link #prefixOf}, or one folded into a number) says the role: Hebrew's "ב" is "in". */
    boolean prefixLetterMeans(char letter, Role r) {
        return false;
    }

    /** A part of the day said right after a clock time ("утра" in "в 9 утра"), or null. */
    final PartOfDay partAfterClock(String word) {
        return afterClock.get(fold(word));
    }

    /**
     * A part of the day named by a word that is read as one only with a day or a time, after "this"
     * or "in the", or in a whole-text reading ("morning": "Monday morning", "in the morning"); or null.
     */
    final PartOfDay partNamed(String word) {
        return partNames.isEmpty() ? null : partNames.get(fold(word));
    }

    /** Whether some ordinal word is also a number: "שני" is "second" and "two". */
    final boolean ordinalsCount() {
        return ordinalsCount;
    }

    /**
     * Whether a word of today's part of the day said right after {@code word} means the next such
     * part, not today's: "על הבוקר" (first thing in the morning), "בסביבות הערב".
     */
    final boolean partAnyDayAfter(String word) {
        return !partsAnyDayAfter.isEmpty() && partsAnyDayAfter.contains(fold(word));
    }

    /** Whether a word written right after a number makes it an ordinal: "th" in "5th", "го" in "5-го". */
    final boolean ordinalEnding(String word) {
        return ordinalEndings.contains(word);
    }

    /** A language's own reading of a weekday's name at token {@code i} ("ביום א'"), or null. */
    Hit<DayOfWeek> ownWeekday(Engine e, int i) {
        return null;
    }

    /**
     * A weekday's bare name at token {@code i} where what follows says a weekday is meant (its count,
     * "after", "nearest to": "שני הראשון של החודש", "שישי אחרי חנוכה"), in a language whose bare names
     * are also other words ("שני" is "second"); or null, and the engine reads the name as anywhere.
     */
    Hit<DayOfWeek> bareWeekday(Engine e, int i) {
        return null;
    }

    /** Whether a day of the month is said by its cardinal ("חמישה עשר במרץ"), not only by its ordinal ("the fifth"). */
    boolean cardinalDays() {
        return false;
    }

    /** Whether an n-th is said after what it counts ("היום השלישי של החודש"), not before it ("the third day"). */
    boolean countAfterThing() {
        return false;
    }

    /**
     * A weekday at token {@code i} said in a list after another, as the language joins them and names
     * them there ("וחמישי", "ראשון, שלישי"), or null: where a list is joined only by a word ("and"),
     * the engine reads it alone.
     */
    Hit<DayOfWeek> listedWeekday(Engine e, int i) {
        return null;
    }

    /**
     * Whether the weekday name at token {@code name} (its words end at {@code end}) is here a word
     * of another sense ("sat", "sun"), said with no "next" or "this" before it.
     */
    boolean notAWeekday(Engine e, int name, int end) {
        return false;
    }

    /**
     * Whether the month name at token {@code name}, said alone (nothing after it ends at {@code end}),
     * is here a word of another sense ("may", "march"; "מאי" is also a name).
     */
    boolean notAMonth(Engine e, int name, int end) {
        return false;
    }

    /** Where a year may be written with two digits after a date. */
    enum ShortYears {
        /** Nowhere: two digits after a date are not its year. */
        NONE,
        /**
         * After a date whose month is said last, past a comma or an apostrophe ("3 May 16", "May 3rd,
         * 81", "Oct 3 '90"): after "May 3rd" a bare number is more often an hour.
         */
        SET_OFF,
        /** After any date ("3 במאי 16", "3 במאי, 81"). */
        AFTER_ANY_DATE
    }

    /** Where a year may be written with two digits after a date (numeric dates read them anyway: "10/31/74"). */
    ShortYears shortYears() {
        return ShortYears.NONE;
    }

    /** A language's own shapes of the length of a thing at token {@code i} ("a 90-minute call"), or null. */
    Hit<Offset> ownLength(Engine e, int i) {
        return null;
    }

    /** A language's own reading of a day or of now at token {@code i} ("2morrow"), or null. */
    Hit<InstantSpec> ownDay(Engine e, int i) {
        return null;
    }

    /**
     * A holiday the lexicon reads itself at token {@code i}, where its name is also a common word
     * and only the words around it say which ("בשבועות" is Shavuot, "שבועות" alone is weeks); or null.
     */
    Hit<DateRef> ownHoliday(Engine e, int i) {
        return null;
    }

    /** A date of a language's own calendar at token {@code i} ("ט\"ו בשבט"), or null. */
    Hit<DateRef> ownDate(Engine e, int i) {
        return null;
    }

    /**
     * A language's own reading of a clock time at token {@code i} ("в половине десятого", "רבע
     * לשמונה"), read in {@code ctx} where the instant has {@code acc} already (null in a recurrence); or null.
     */
    Hit<ClockTime> ownClock(Engine e, int i, Grammar.Context ctx, InstantSpec acc) {
        return null;
    }

    /**
     * Whether the language's {@link #ownClock} reads every hour said by a number, so the engine's
     * rule for a bare hour is not asked: a Hebrew number is an hour only by its prefix letters.
     */
    boolean readsOwnHours() {
        return false;
    }

    /**
     * Where the next part of an instant starts at or after token {@code q}, past words that only lead
     * to it ("בסביבות 8"; "ב" and "על" between two parts when {@code later}); {@code q} when none.
     */
    int partStart(Engine e, int q, boolean later) {
        return q;
    }

    /** Whether what follows token {@code i} makes the number before it an hour in this language ("8 וחצי"). */
    boolean clockAhead(Engine e, int i) {
        return false;
    }

    // ---- building the tables ------------------------------------------------------------------

    /**
     * Each of the words means {@code m}; a form already taken keeps its first meaning as its usual
     * one and gains {@code m} for the rules that ask for its kind.
     */
    final void words(Meaning m, String... forms) {
        for (String f : forms) {
            add(f, m);
        }
    }

    /** The stem with each of the endings ("" for the bare stem) means {@code m}. */
    final void forms(Meaning m, String stem, String... endings) {
        for (String e : endings) {
            add(stem + e, m);
        }
    }

    private void add(String form, Meaning m) {
        if (m instanceof Role r) {
            wordRoles.add(r);
        }
        List<Meaning> ms = words.get(form);
        if (ms == null) {
            words.put(form, List.of(m));
        } else if (!ms.contains(m)) {
            List<Meaning> more = new java.util.ArrayList<>(ms);
            more.add(m);
            if (m instanceof Role r) {
                otherRoles.add(r);
            }
            words.put(form, List.copyOf(more));
            ordinalsCount |= more.stream().anyMatch(Meaning.Ordinal.class::isInstance)
                    && more.stream().anyMatch(Meaning.Amount.class::isInstance);
        }
    }

    /** A phrase of several words, written with spaces between them, means {@code m}. */
    final void phrase(Meaning m, String... texts) {
        for (String text : texts) {
            List<String> ws = List.of(text.split(" "));
            List<Phrase> list = new java.util.ArrayList<>(phrases.getOrDefault(ws.getFirst(), List.of()));
            list.add(new Phrase(ws, m));
            if (m instanceof Role r) {
                phraseRoles.add(r);
            }
            phrasesSayOften |= m instanceof Meaning.Often;
            phrasesNameAWeekday |= m instanceof Meaning.Weekdays w && w.days().size() == 1;
            phrasesNamePluralWeekdays |= m instanceof Meaning.Weekdays w && w.plural();
            phrasesNameAClock |= m instanceof Meaning.Clock;
            list.sort((a, b) -> b.words().size() - a.words().size());
            phrases.put(ws.getFirst(), List.copyOf(list));
        }
    }

    final void role(Role r, String... forms) {
        words(r, forms);
    }

    final void weekday(DayOfWeek d, boolean plural, String stem, String... endings) {
        forms(new Meaning.Weekdays(List.of(d), plural), stem, endings);
    }

    final void ordinalEndings(String... endings) {
        ordinalEndings.addAll(List.of(endings));
    }

    final void partNames(PartOfDay p, String... forms) {
        for (String f : forms) {
            partNames.put(f, p);
        }
    }

    final void wordsAfterBareHour(String... forms) {
        afterBareHour.addAll(List.of(forms));
    }

    final void partsAnyDayAfter(String... forms) {
        partsAnyDayAfter.addAll(List.of(forms));
    }

    final void partsAfterClock(PartOfDay p, String... forms) {
        for (String f : forms) {
            afterClock.put(f, p);
        }
    }
}
