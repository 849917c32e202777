package dev.weft.time.internal;

import dev.weft.time.Grain;
import dev.weft.time.TimeExpression;
import dev.weft.time.internal.ClockTime.Meridiem;
import dev.weft.time.internal.Meaning.Month;
import dev.weft.time.internal.Meaning.Role;
import java.time.DayOfWeek;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.Set;

/**
 * Hebrew for the {@link Engine}: the words of every family, which the engine reads for Hebrew as it
 * does for English and Russian. What is Hebrew's own here: a word is found with or without
 * the prefix letters written before it (ו ב ל ה מ כ ש), as in "במרץ", "האידים", "ולמרץ".
 */
final class HebrewLexicon extends Lexicon {

    /** The months by their names, with "מרס" for March; the grammar's rules read them with their prefixes. */
    static final java.util.Map<String, Integer> MONTHS = java.util.Map.ofEntries(
            java.util.Map.entry("ינואר", 1),
            java.util.Map.entry("פברואר", 2),
            java.util.Map.entry("מרץ", 3),
            java.util.Map.entry("מרס", 3),
            java.util.Map.entry("אפריל", 4),
            java.util.Map.entry("מאי", 5),
            java.util.Map.entry("יוני", 6),
            java.util.Map.entry("יולי", 7),
            java.util.Map.entry("אוגוסט", 8),
            java.util.Map.entry("ספטמבר", 9),
            java.util.Map.entry("אוקטובר", 10),
            java.util.Map.entry("נובמבר", 11),
            java.util.Map.entry("דצמבר", 12));

    /** The weekdays' names, which are also ordinals ("שני" is "second"), and common misspellings. */
    static final java.util.Map<String, DayOfWeek> DAY_NAMES = java.util.Map.of(
            "ראשון", DayOfWeek.SUNDAY,
            "שני", DayOfWeek.MONDAY,
            "שלישי", DayOfWeek.TUESDAY,
            "רביעי", DayOfWeek.WEDNESDAY,
            "חמישי", DayOfWeek.THURSDAY,
            "שישי", DayOfWeek.FRIDAY,
            "שבת", DayOfWeek.SATURDAY,
            "חמשי", DayOfWeek.THURSDAY,
            "שלשי", DayOfWeek.TUESDAY,
            "ששי", DayOfWeek.FRIDAY);

    /** The weekdays by their letters, after "יום": "יום א'" is Sunday. */
    private static final java.util.Map<String, DayOfWeek> DAY_LETTERS = java.util.Map.of(
            "א", DayOfWeek.SUNDAY,
            "ב", DayOfWeek.MONDAY,
            "ג", DayOfWeek.TUESDAY,
            "ד", DayOfWeek.WEDNESDAY,
            "ה", DayOfWeek.THURSDAY,
            "ו", DayOfWeek.FRIDAY,
            "ש", DayOfWeek.SATURDAY);

    /** Built after the tables above, which it reads. */
    static final HebrewLexicon INSTANCE = new HebrewLexicon();

    private HebrewLexicon() {
        MONTHS.forEach((name, m) -> words(new Month(m), name));
        role(Role.LINK, "של");
        words(new Meaning.Day(0), "היום");
        words(new Meaning.Day(1), "מחר");
        words(new Meaning.Day(2), "מחרתיים", "מחרתים");
        words(new Meaning.Day(-1), "אתמול");
        words(new Meaning.Day(-2), "שלשום");
        role(Role.NOW, "עכשיו", "עכשו", "כעת", "כרגע", "מיד", "מייד");
        phrase(Role.NOW, "ממש עכשיו", "עכשיו מיד", "עכשו מיד", "כעת מיד", "כרגע מיד", "מיד מיד", "מייד מיד");
        for (String moment : new String[] {"ברגע", "נכון"}) {
            for (String self : new String[] {"זה", "הזה", "לעכשיו", "לרגע"}) {
                phrase(Role.NOW, moment + " " + self);
            }
        }
        words(Meaning.NamedDay.IDES, "אידי", "אידים", "אידוס", "האידוס");
        words(Meaning.NamedDay.NONES, "נונות", "נונס");
        words(new Meaning.Unit(java.time.temporal.ChronoUnit.WEEKS), "שבוע");
        words(new Meaning.Unit(java.time.temporal.ChronoUnit.MONTHS), "חודש", "לחודש", "בחודש");
        // "ב-15 לחודש": the 15th of the month; "לחודש הבא" still counts a month
        role(Role.DAY_OF_MONTH, "לחודש", "בחודש");
        words(new Meaning.Unit(java.time.temporal.ChronoUnit.YEARS), "שנה", "שנת");
        role(Role.NEXT, "הבא", "הבאה", "הקרוב", "הקרובה", "שבא", "שבאה", "הבאים", "הבאות", "הקרובים", "הקרובות");
        // after a weekday, "הקרוב" is the nearest one ahead, where "הבא" is the next one as people mean it
        role(Role.COMING, "הקרוב", "הקרובה", "שבא", "שבאה");
        role(Role.THIS, "הזה", "הזאת", "הזו", "הנוכחי", "הנוכחית");
        role(Role.LAST, "שעבר", "שעברה", "הקודם", "הקודמת", "שחלף", "שחלפה", "האחרון", "האחרונה");
        role(Role.LAST, "שעברו", "האחרונים", "האחרונות", "הקודמים", "הקודמות");
        role(Role.AFTER, "אחרי");
        // "ערב פסח" is the eve of Passover; with the article ("הערב") it is this evening, not an eve
        role(Role.EVE, "ערב");
        role(Role.WEEKEND, "סופ\"ש", "סופש");
        // "סוף שבוע" is the weekend; "סוף השבוע", with the article, the end of the week
        phrase(Role.WEEKEND, "סוף שבוע", "בסוף שבוע", "לסוף שבוע", "מסוף שבוע", "עד סוף שבוע");
        role(Role.BEFORE, "לפני");
        role(Role.QUARTER, "רבעון", "רבעונים", "q");
        role(Role.END, "סוף");
        role(Role.START, "תחילת");
        role(Role.MIDDLE, "אמצע");
        role(Role.REST, "שארית", "שאר");
        role(Role.EVERY, "כל");
        String[] days = {"שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת", "ראשון"};
        for (int d = 1; d <= 7; d++) {
            phrase(new Meaning.Weekdays(java.util.List.of(DayOfWeek.of(d)), false), "יום " + days[d - 1]);
        }
        String[] ordinals = {"הראשון", "השני", "השלישי", "הרביעי"};
        for (int n = 1; n <= ordinals.length; n++) {
            words(new Meaning.Ordinal(n), ordinals[n - 1]);
        }
        // without the article an ordinal is also a weekday's name: rules that want an ordinal ask for one
        String[] bare = {"ראשון", "שני", "שלישי", "רביעי", "חמישי", "שישי", "שביעי", "שמיני", "תשיעי", "עשירי"};
        for (int n = 1; n <= bare.length; n++) {
            words(new Meaning.Ordinal(n), bare[n - 1]);
        }
        // Tu B'Av, 15 Av, and the Seder night, the eve of Passover (months numbered as ICU4J's HebrewCalendar)
        phrase(new Meaning.Holiday(new DateRef.HebrewDate(11, 15, 0)), "חג האהבה", "ט\"ו באב", "טו באב");
        phrase(new Meaning.Holiday(new DateRef.HebrewDate(7, 14, 0)), "ליל הסדר", "ליל סדר");
        holidays();
        partsOfTheDay();
        recurrences();
        // "ב-10 לפי שעון UTC": by that zone's clock; "שעון ישראל" is Israel's time
        role(Role.CLOCK_OF, "לפי", "שעון");
        phrase(new Meaning.Zone(java.time.ZoneId.of("Asia/Jerusalem")), "שעון ישראל", "לפי שעון ישראל");
        phrase(Role.THIS_TIME, "בזמן הזה", "בשעה זו", "בשעה הזאת", "בשעה הזו", "באותה שעה", "בזמן הזה בדיוק");
        amounts();
    }

    /**
     * Parts of the day. With the article a word is today's ("הערב", "מהבוקר"); with "ב" it is any
     * day's ("בערב", "ובבוקר"), as are the phrases; bare ("בוקר") it is read only with a day or a time
     * ("מחר בוקר"). After "על" or "בסביבות" today's word is the next such part ("על הבוקר"), as
     * is a bare one ("בסביבות הצהריים").
     */
    private void partsOfTheDay() {
        words(new Meaning.Part(PartOfDay.MORNING, true), "הבוקר");
        words(new Meaning.Part(PartOfDay.EVENING, true), "הערב");
        words(new Meaning.Part(PartOfDay.NIGHT, true), "הלילה");
        partsAnyDayAfter("על", "בסביבות", "סביבות", "סביב", "לקראת", "עד");
        words(new Meaning.Part(PartOfDay.MORNING, false), "בבוקר", "לפנה\"צ");
        words(new Meaning.Part(PartOfDay.NOON, false), "בצהריים", "בצהרים");
        words(new Meaning.Part(PartOfDay.AFTERNOON, false), "אחה\"צ", "אחהצ");
        words(new Meaning.Part(PartOfDay.EVENING, false), "בערב");
        words(new Meaning.Part(PartOfDay.NIGHT, false), "בלילה");
        phrase(new Meaning.Part(PartOfDay.NOON, false), "בצהריים היום", "בצהרים היום", "בצהרי היום");
        phrase(
                new Meaning.Part(PartOfDay.AFTERNOON, false),
                "אחר הצהריים",
                "אחר הצהרים",
                "אחרי הצהריים",
                "אחרי הצהרים");
        phrase(new Meaning.Part(PartOfDay.MORNING, false), "לפני הצהריים", "לפני הצהרים", "לפנות בוקר");
        phrase(new Meaning.Part(PartOfDay.EVENING, false), "לפנות ערב");
        phrase(new Meaning.Part(PartOfDay.MORNING, false), "דבר ראשון"); // "מחר דבר ראשון": first thing tomorrow
        partNames(PartOfDay.MORNING, "בוקר");
        // "הצהריים" is read as noon only so ("מחר הצהריים", "בסביבות הצהריים"): "לפני הצהריים" is the morning
        partNames(PartOfDay.NOON, "צהריים", "צהרים", "הצהריים", "הצהרים");
        partNames(PartOfDay.EVENING, "ערב");
        partNames(PartOfDay.NIGHT, "לילה");
        phrase(new Meaning.WeekdayPart(DayOfWeek.FRIDAY, PartOfDay.EVENING), "ערב שבת");
        phrase(new Meaning.WeekdayPart(DayOfWeek.SATURDAY, PartOfDay.EVENING), "מוצאי שבת");
        words(new Meaning.WeekdayPart(DayOfWeek.SATURDAY, PartOfDay.EVENING), "מוצ\"ש", "מוצש");
        phrase(new Meaning.Clock(17), "סוף היום"); // the end of the working day
        words(new Meaning.Clock(24), "חצות"); // "בחצות", "עד חצות": a clock word, read by the engine
        phrase(Role.ALL_DAY, "כל היום", "לכל היום", "במשך היום"); // "מחר כל היום": all of a day, which a day is
    }

    /** The words of recurrences: "יום יום", "ימי חול", "מדי", the n-th weekday of every month ("ימי שני" is an amount's). */
    private void recurrences() {
        phrase(new Meaning.Often(TimeExpression.Recurrence.Frequency.DAILY), "יום יום");
        role(Role.EVERY, "מדי");
        role(Role.ONCE, "פעם"); // "פעם בשבוע"
        role(Role.AND, "ו");
        java.util.List<DayOfWeek> workWeek = java.util.List.of(
                DayOfWeek.SUNDAY, DayOfWeek.MONDAY, DayOfWeek.TUESDAY, DayOfWeek.WEDNESDAY, DayOfWeek.THURSDAY);
        phrase(new Meaning.Weekdays(workWeek, false), "יום חול", "יום עבודה");
        phrase(new Meaning.Weekdays(workWeek, true), "ימי חול", "ימי עבודה");
        words(new Meaning.Ordinal(5), "החמישי");
        String[] more = {"השישי", "השביעי", "השמיני", "התשיעי", "העשירי"};
        for (int n = 0; n < more.length; n++) {
            words(new Meaning.Ordinal(6 + n), more[n]); // "היום העשירי של החודש"
        }
        // the one before the last, counted from the end: "היום הלפני אחרון של החודש"
        phrase(new Meaning.Ordinal(-2), "הלפני אחרון", "הלפני אחרונה");
        // "היום השלישי של החודש": with the article "יום" is still the day an n-th counts
        words(new Meaning.Unit(ChronoUnit.DAYS), "היום");
        role(Role.NEAREST, "הקרוב", "הקרובה"); // "יום שני הקרוב לכריסמס"
        phrase(
                Role.NEAREST,
                "הכי קרוב",
                "הכי קרובה",
                "הכי קרוב ביותר",
                "הכי קרובה ביותר",
                "הקרוב ביותר",
                "הקרובה ביותר");
        words(new Meaning.Ordinal(1), "הראשונה");
        words(new Meaning.Ordinal(2), "השנייה");
    }

    /**
     * Numbers, units and the words around an amount of time. A cardinal has a form for each gender and
     * a construct form ("שלושת ימים"); the construct "שני" and "שתי" come after the weekday and the
     * ordinal they also are. Two of a unit is one word, its dual ("שבועיים").
     */
    private void amounts() {
        words(new Meaning.Amount(1), "אחד", "אחת");
        words(new Meaning.Amount(2), "שניים", "שתיים", "שתים", "שני", "שתי");
        words(new Meaning.Amount(3), "שלוש", "שלש", "שלושה", "שלשה", "שלושת");
        words(new Meaning.Amount(4), "ארבע", "ארבעה", "ארבעת");
        words(new Meaning.Amount(5), "חמש", "חמישה", "חמשה", "חמשת");
        words(new Meaning.Amount(6), "שש", "שישה", "ששה", "ששת");
        words(new Meaning.Amount(7), "שבע", "שבעה", "שבעת");
        words(new Meaning.Amount(8), "שמונה", "שמונת");
        words(new Meaning.Amount(9), "תשע", "תשעה", "תשעת");
        words(new Meaning.Amount(10), "עשר", "עשרה", "עשרת");
        role(Role.TEEN, "עשר", "עשרה");
        String[] tens = {"עשרים", "שלושים", "ארבעים", "חמישים", "שישים", "שבעים", "שמונים", "תשעים"};
        for (int t = 0; t < tens.length; t++) {
            words(new Meaning.Amount(20 + 10 * t), tens[t]);
        }
        words(new Meaning.Amount(0.5), "חצי");
        words(new Meaning.Amount(0.25), "רבע");
        role(Role.QUARTER, "רבעי"); // "שלושת רבעי שעה"
        words(new Meaning.Some(3), "כמה");
        role(Role.AND_A_HALF, "וחצי");
        role(Role.AND_A_QUARTER, "ורבע");
        role(Role.SHARP, "בדיוק"); // "20:00 בדיוק": on the dot
        words(new Meaning.Unit(ChronoUnit.SECONDS), "שנייה", "שניה", "שניות");
        words(new Meaning.Unit(ChronoUnit.MINUTES), "דקה", "דקות", "דק'", "דק", "ד'");
        words(new Meaning.Unit(ChronoUnit.HOURS), "שעה", "שעות");
        words(new Meaning.Unit(ChronoUnit.DAYS), "יום", "ימים");
        words(new Meaning.Unit(ChronoUnit.WEEKS), "שבועות");
        words(new Meaning.Unit(ChronoUnit.MONTHS), "חודשים");
        words(new Meaning.Unit(ChronoUnit.YEARS), "שנים");
        words(new Meaning.Length(2, ChronoUnit.MINUTES), "דקותיים");
        words(new Meaning.Length(2, ChronoUnit.HOURS), "שעתיים");
        words(new Meaning.Length(2, ChronoUnit.DAYS), "יומיים");
        words(new Meaning.Length(2, ChronoUnit.WEEKS), "שבועיים");
        words(new Meaning.Length(2, ChronoUnit.MONTHS), "חודשיים");
        words(new Meaning.Length(2, ChronoUnit.YEARS), "שנתיים");
        role(Role.IN, "בעוד", "תוך", "בתוך", "כעבור");
        role(Role.AFTER, "לאחר", "שאחר");
        role(Role.IN, "אחרי", "לאחר"); // "אחרי שעתיים": after two hours from now
        role(Role.MORE, "עוד");
        role(Role.AGO, "לפני"); // said before the amount: "לפני שבועיים"
        role(Role.MORROW, "למחרת");
        role(Role.ABOUT, "כ", "בערך");
        role(Role.OR_SO, "בערך", "בקירוב", "נוספות", "נוספים", "נוספת", "נוסף"); // "עוד 5 דקות נוספות"
        role(Role.LASTING, "למשך", "במשך");
        // a part of the day said after an hour, with "ב" ("ב-8 בערב"): "מ-3 עד 5 בערב" is hours, not days
        partsAfterClock(PartOfDay.MORNING, "בבוקר", "ובבוקר", "לפנה\"צ");
        partsAfterClock(PartOfDay.NOON, "בצהריים", "בצהרים");
        partsAfterClock(PartOfDay.AFTERNOON, "אחה\"צ", "אחהצ");
        partsAfterClock(PartOfDay.EVENING, "בערב", "ובערב");
        partsAfterClock(PartOfDay.NIGHT, "בלילה", "ובלילה");
        role(Role.BETWEEN, "בין");
        role(Role.AND, "לבין"); // "בין ה-3 לבין ה-6"
        role(Role.TO, "עד", "ל");
        role(Role.NOW, "הרגע"); // "מהרגע": from now
        String[] days = {"שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת", "ראשון"};
        for (int d = 1; d <= 7; d++) {
            phrase(new Meaning.Weekdays(java.util.List.of(DayOfWeek.of(d)), true), "ימי " + days[d - 1]);
        }
    }

    /** Units in the singular, which alone mean one of them: "בעוד שעה", where "לפני שנים" is no amount. */
    private static final Set<String> SINGULAR_UNITS =
            Set.of("שנייה", "שניה", "דקה", "שעה", "יום", "שבוע", "חודש", "שנה");

    @Override
    boolean bareUnitIsOne(String word) {
        return SINGULAR_UNITS.contains(word.substring(prefixOf(word).length()));
    }

    /** "פגישה של שעה וחצי", "באורך 45 דקות", "שנמשכת כשעה": how long a thing lasts, said after it. */
    @Override
    Hit<Offset> ownLength(Engine e, int i) {
        if (i + 1 >= e.size
                || !e.tok(i).isWord()
                || !LENGTH_OF.contains(e.tok(i).text())) {
            return null;
        }
        Hit<Offset> d = e.offsetAmount(e.hedged(i + 1));
        return d != null && !d.value().dateBased() ? d : null;
    }

    private static final Set<String> LENGTH_OF = Set.of("של", "באורך", "שנמשכת", "שנמשך", "שאורכה", "שאורכו");

    /** Holidays by their names, as written after "חג" too ("חג פסח", "חג הפסח"), except Christmas's own "חג המולד". */
    private void holidays() {
        holiday(new DateRef.CalendarDate(0, 1, 1), "ראש השנה האזרחית");
        holiday(new DateRef.HebrewDate(12, 29, 0), "ערב ראש השנה");
        holiday(new DateRef.HebrewDate(0, 1, 0), "ראש השנה");
        holiday(new DateRef.HebrewDate(0, 9, 0), "ערב יום כיפור");
        holiday(new DateRef.HebrewDate(0, 9, 0), "ערב יום הכיפורים");
        holiday(new DateRef.HebrewDate(0, 10, 0), "יום כיפור");
        holiday(new DateRef.HebrewDate(0, 10, 0), "יום כפור");
        holiday(new DateRef.HebrewDate(0, 10, 0), "יום הכיפורים");
        holiday(new DateRef.HebrewDate(0, 10, 0), "כיפור");
        holiday(new DateRef.HebrewDate(0, 15, 0), "סוכות");
        holiday(new DateRef.HebrewDate(0, 15, 0), "הסוכות");
        holiday(new DateRef.HebrewDate(0, 22, 0), "שמחת תורה");
        holiday(new DateRef.HebrewDate(2, 25, 0), "חנוכה");
        holiday(new DateRef.HebrewDate(2, 25, 0), "החנוכה");
        holiday(new DateRef.HebrewDate(6, 14, 0), "פורים");
        holiday(new DateRef.HebrewDate(6, 15, 0), "שושן פורים");
        holiday(new DateRef.HebrewDate(0, 22, 0), "שמיני עצרת");
        holiday(new DateRef.HebrewDate(11, 15, 0), "ט\"ו באב");
        holiday(new DateRef.EasterRef(0, 0), "פסחא");
        holiday(new DateRef.HebrewDate(7, 14, 0), "ערב פסח");
        holiday(new DateRef.HebrewDate(7, 15, 0), "פסח");
        holiday(new DateRef.HebrewDate(7, 15, 0), "הפסח");
        holiday(new DateRef.HebrewDate(7, 27, 0, DateRef.Observance.HOLOCAUST), "יום השואה");
        holiday(new DateRef.HebrewDate(8, 5, 0, DateRef.Observance.MEMORIAL), "יום הזיכרון");
        holiday(new DateRef.HebrewDate(8, 5, 0, DateRef.Observance.MEMORIAL), "יום הזכרון");
        holiday(new DateRef.HebrewDate(8, 5, 0, DateRef.Observance.INDEPENDENCE), "יום העצמאות");
        holiday(new DateRef.HebrewDate(8, 18, 0), "ל\"ג בעומר");
        holiday(new DateRef.HebrewDate(8, 18, 0), "לג בעומר");
        holiday(new DateRef.HebrewDate(8, 28, 0), "יום ירושלים");
        holiday(new DateRef.HebrewDate(9, 6, 0), "השבועות");
        holiday(new DateRef.HebrewDate(11, 9, 0, DateRef.Observance.FAST), "תשעה באב");
        holiday(new DateRef.HebrewDate(11, 9, 0, DateRef.Observance.FAST), "ט' באב");
        holiday(new DateRef.HebrewDate(11, 9, 0, DateRef.Observance.FAST), "ט באב");
        holiday(new DateRef.CalendarDate(0, 12, 24), "ערב חג המולד");
        holiday(new DateRef.CalendarDate(0, 12, 25), "חג המולד");
        holiday(new DateRef.CalendarDate(0, 12, 25), "כריסמס");
        holiday(new DateRef.CalendarDate(0, 12, 25), "קריסמס");
        holiday(new DateRef.CalendarDate(0, 12, 31), "סילבסטר");
        holiday(new DateRef.CalendarDate(0, 2, 14), "ולנטיין");
        holiday(new DateRef.CalendarDate(0, 2, 14), "יום ולנטיין");
        holiday(new DateRef.CalendarDate(0, 10, 31), "האלווין");
        holiday(new DateRef.CalendarDate(0, 10, 31), "הלווין");
    }

    private void holiday(DateRef date, String name) {
        Meaning.Holiday h = new Meaning.Holiday(date);
        phrase(h, name);
        if (!name.startsWith("חג ") && !name.startsWith("ערב ")) {
            phrase(h, "חג " + name);
            if (!name.startsWith("ה")) {
                phrase(h, "חג ה" + name);
            }
        }
    }

    /** The phrases that start with a word, or with it without its prefix letters. */
    @Override
    java.util.List<Phrase> phrasesFrom(String word) {
        java.util.List<Phrase> p = super.phrasesFrom(word);
        for (int k = 0; p.isEmpty() && k < 2 && k < word.length() - 2; k++) {
            if (Tokenizer.HEBREW_PREFIX_LETTERS.indexOf(word.charAt(k)) < 0) {
                break;
            }
            p = super.phrasesFrom(word.substring(k + 1));
        }
        return p;
    }

    /** Shavuot, 6 Sivan (months numbered as ICU4J's HebrewCalendar). */
    private static final DateRef SHAVUOT = new DateRef.HebrewDate(9, 6, 0);

    /**
     * Shavuot, whose name is also "weeks": a holiday only with a prefix ("בשבועות"), after "חג", after
     * its eve ("ערב שבועות") or after a word that counts days from a date ("למחרת שבועות").
     */
    @Override
    Hit<DateRef> ownHoliday(Engine e, int i) {
        if (i >= e.size || !e.tok(i).isHebrew()) {
            return null;
        }
        int start = prefixBefore(e.tok(i).text(), "חג") != null ? i + 1 : i;
        String prefix = start < e.size && e.tok(start).isHebrew()
                ? prefixBefore(e.tok(start).text(), "שבועות")
                : null;
        if (prefix == null) {
            return null;
        }
        boolean holiday = start > i
                || !prefix.isEmpty()
                || e.word(i - 1, "אחרי", "לאחר", "לפני", "למחרת", "שאחרי", "שלפני")
                || (e.isRole(i - 1, Role.EVE) && !definite(e.tok(i - 1).text()));
        return holiday ? new Hit<>(SHAVUOT, start + 1) : null;
    }

    /** Days of the Hebrew calendar: "ט\"ו בשבט", "15 בניסן", "א' בניסן תשפ\"ז", "בניסן". */
    @Override
    Hit<DateRef> ownDate(Engine e, int i) {
        return HebrewDates.dateAt(e, i);
    }

    @Override
    Hit<DayOfWeek> ownWeekday(Engine e, int i) {
        return weekdayName(e, i, false);
    }

    /** Any bare name where what follows says it is a weekday: "שני הראשון של החודש", "שישי אחרי חנוכה". */
    @Override
    Hit<DayOfWeek> bareWeekday(Engine e, int i) {
        return weekdayName(e, i, true);
    }

    /** "היום השלישי של החודש", "יום ראשון האחרון של מרץ": the count after what it counts, with the article. */
    @Override
    boolean countAfterThing() {
        return true;
    }

    /** "חמישה עשר במרץ", "באחד בינואר": a day is said by its cardinal. */
    @Override
    boolean cardinalDays() {
        return true;
    }

    @Override
    boolean readsOwnDays() {
        return true; // ownDate, ownWeekday, ownHoliday
    }

    /** Units of time, after which a weekday's name is a number: "שני ימים" is two days. */
    private static final Set<String> UNITS_AFTER_A_NUMBER = Set.of(
            "שנייה", "שניה", "שניות", "דקה", "דקות", "דק'", "דק", "ד'", "שעה", "שעות", "יום", "ימים", "שבוע", "שבועות",
            "חודש", "חודשים", "שנה", "שנים");

    /** In a list any weekday's name is one, with "ו" for "and": "ראשון, שלישי וחמישי", "ויום ה'". */
    @Override
    Hit<DayOfWeek> listedWeekday(Engine e, int i) {
        Hit<DayOfWeek> d = weekdayName(e, i, true);
        if (d == null
                || (d.end() < e.size
                        && UNITS_AFTER_A_NUMBER.contains(e.tok(d.end()).text()))) {
            return null;
        }
        return d;
    }

    /**
     * A weekday: "יום שני", "ביום א'", "בשבת", "בחמישי". A name alone is also an ordinal ("השני" is
     * "the second"), so it is a weekday only after "ב" ("בחמישי"), in a recurrence ({@code bareNames}),
     * as the whole text, or when it is Saturday.
     */
    Hit<DayOfWeek> weekdayName(Engine e, int i, boolean bareNames) {
        if (i >= e.size || !e.tok(i).isHebrew()) {
            return null;
        }
        String t = e.tok(i).text();
        if (prefixBefore(t, "יום") != null && !t.equals("היום")) {
            int j = i + 1;
            if (j < e.size && e.tok(j).isHebrew()) {
                String name = e.tok(j).text();
                DayOfWeek d = DAY_NAMES.get(name);
                if (d != null) {
                    return new Hit<>(d, j + 1);
                }
                String letter = name.endsWith("'") ? name.substring(0, name.length() - 1) : name;
                d = DAY_LETTERS.get(letter);
                if (d != null && letter.length() == 1) {
                    return new Hit<>(d, j + 1);
                }
            }
            return null;
        }
        for (int k = 0; k <= 3 && k < t.length(); k++) {
            if (k > 0 && Tokenizer.HEBREW_PREFIX_LETTERS.indexOf(t.charAt(k - 1)) < 0) {
                return null;
            }
            DayOfWeek d = DAY_NAMES.get(t.substring(k));
            if (d != null) {
                String prefix = t.substring(0, k);
                boolean named = d == DayOfWeek.SATURDAY || bareNames || e.lenient || prefix.endsWith("ב");
                return named && !(prefix.equals("ה") && d != DayOfWeek.SATURDAY) ? new Hit<>(d, i + 1) : null;
            }
        }
        return null;
    }

    /** The prefix letters written before {@code word} in {@code token} ("" when bare), or null. */
    static String prefixBefore(String token, String word) {
        if (token.equals(word)) {
            return "";
        }
        if (token.length() > word.length() && token.length() - word.length() <= 3 && token.endsWith(word)) {
            String p = token.substring(0, token.length() - word.length());
            for (int k = 0; k < p.length(); k++) {
                if (Tokenizer.HEBREW_PREFIX_LETTERS.indexOf(p.charAt(k)) < 0) {
                    return null;
                }
            }
            return p;
        }
        return null;
    }

    /** "השבוע", "מהחודש", "שהשנה": the article before the period's word, but not "לה" ("to the"). */
    @Override
    boolean thisByArticle(String word) {
        for (int k = 1; k <= 3 && k < word.length() - 2; k++) {
            String prefix = word.substring(0, k);
            if (Tokenizer.HEBREW_PREFIX_LETTERS.indexOf(word.charAt(k - 1)) < 0) {
                return false;
            }
            if (super.meaning(word.substring(k)) != null) {
                return prefix.endsWith("ה") && !prefix.startsWith("ל");
            }
        }
        return false;
    }

    /** The roles a prefix letter says: "ב" in, at or on, "ל" for how long or to, "מ" from, "ו" and, "כ" about. */
    private static final java.util.Map<Character, Set<Role>> PREFIX_ROLES = java.util.Map.of(
            'ב', EnumSet.of(Role.IN, Role.AT, Role.ON),
            'ל', EnumSet.of(Role.LASTING, Role.TO),
            'מ', EnumSet.of(Role.FROM),
            'ו', EnumSet.of(Role.AND),
            'כ', EnumSet.of(Role.ABOUT),
            'ה', EnumSet.of(Role.LINK));

    @Override
    boolean prefixLetterMeans(char letter, Role r) {
        Set<Role> roles = PREFIX_ROLES.get(letter);
        return roles != null && roles.contains(r);
    }

    @Override
    boolean writesPrefixes() {
        return true;
    }

    /** The prefix letters {@link #meaning} strips from the word to find it, "" when it is found whole. */
    @Override
    String prefixOf(String word) {
        // A word listed whole is found whole, unless what follows its prefix letters means the same:
        // "לחודש" is listed (a day of the month, "ב-15 לחודש") and is still "חודש" with "ל" before it.
        Meaning whole = super.meaning(word);
        for (int k = 0; k < 2 && k < word.length() - 2; k++) {
            if (Tokenizer.HEBREW_PREFIX_LETTERS.indexOf(word.charAt(k)) < 0) {
                break;
            }
            Meaning rest = super.meaning(word.substring(k + 1));
            if (rest != null && (whole == null || whole.equals(rest))) {
                return word.substring(0, k + 1);
            }
        }
        return "";
    }

    @Override
    boolean definite(String word) {
        if (word.length() <= 2 || word.charAt(0) != 'ה') {
            return false;
        }
        Meaning m = super.meaning(word);
        return m == null || (m instanceof Meaning.Part p && p.today()); // "כל הבוקר": all morning
    }

    @Override
    Meaning meaning(String word) {
        Meaning m = super.meaning(word);
        for (int k = 0; m == null && k < 2 && k < word.length() - 2; k++) {
            if (Tokenizer.HEBREW_PREFIX_LETTERS.indexOf(word.charAt(k)) < 0) {
                break;
            }
            m = super.meaning(word.substring(k + 1));
        }
        return m;
    }

    // ---- clock times --------------------------------------------------------------------------

    /** The prefixes on "שעה" that make it "at the hour": "בשעה 8", "מהשעה 9", "לשעה שמונה". */
    private static final Set<String> HOUR_WORD_PREFIXES = Set.of("ב", "וב", "ה", "מ", "ל", "מה");

    /** The feminine numbers that tell the hour ("לאחת עשרה", "לשלוש"), not a count of people or things. */
    private static final Set<String> FEMININE_HOURS =
            Set.of("אחת", "שתיים", "שתים", "שלוש", "ארבע", "חמש", "שש", "שבע", "שמונה", "תשע", "עשר");

    /** The words said just before a time, after which a bare number is an hour: "בסביבות 8". */
    private static final Set<String> ABOUT_A_TIME = Set.of("בסביבות", "סביבות", "סביב", "לקראת");

    /** A whole number said by digits or words, with the prefix letters of its first token. */
    private record Number(int value, String prefix, int end) {}

    /**
     * Hebrew's clock times: "בשעה 8", "ב-8", "בשמונה", "לשלוש" (a feminine number is an hour),
     * "8 וחצי", "שמונה ועשרים", "ב-8 ו-10 דקות", "תשע פחות רבע", "רבע ל-12", "עשרה לשמונה", "רבע
     * אחרי שמונה", "בחצות", "ב1930", "ב-7.30", "20:00 בדיוק". A number is an hour only with a prefix
     * that says so ("ב", "עד"; in an interval also "מ", "ל", "ו" or none), before minutes or a part
     * of the day (also after its minutes: "שמונה ועשרים בערב"), after "בסביבות", or alone after a date ("מחר 8"); digits are on a 24-hour clock
     * unless a part of the day follows.
     */
    @Override
    Hit<ClockTime> ownClock(Engine e, int i, Grammar.Context ctx, InstantSpec acc) {
        if (i >= e.size) {
            return null;
        }
        boolean anchored = false;
        int j = i;
        if (!e.tok(i).isNumber()) {
            String p = e.tok(i).isHebrew() ? prefixBefore(e.tok(i).text(), "שעה") : null;
            if (p != null && HOUR_WORD_PREFIXES.contains(p)) {
                anchored = true;
                j = i + 1;
            }
        }
        Hit<ClockTime> named = anchored ? e.namedClock(j) : null; // "בשעה חצות"; "בחצות" is the engine's
        if (named != null) {
            return named;
        }
        Hit<ClockTime> relative = relativeClock(e, j, ctx, anchored);
        if (relative != null) {
            return relative;
        }
        Hit<ClockTime> digital = e.digitalTime(j);
        if (digital != null) {
            ClockTime c = digital.value(); // Israel writes clock times on a 24-hour clock
            return minutesAfter(
                    e,
                    new ClockTime(
                            c.hour(),
                            c.minute(),
                            c.second(),
                            Meridiem.NONE,
                            e.partSaid(digital.end()) == null,
                            c.grain()),
                    digital.end());
        }
        if (e.num(j)
                && e.sym(j + 1, '.')
                && e.num(j + 2)
                && e.adjacent(j + 1)
                && e.adjacent(j + 2)
                && e.tok(j + 2).text().length() == 2
                && e.value(j) <= 24
                && e.value(j + 2) < 60
                && (anchored || timePrefix(e.tok(j).prefix(), ctx))) {
            return new Hit<>(ClockTime.of(e.value(j), e.value(j + 2), Grain.MINUTE), j + 3);
        }
        if (e.num(j)
                && e.tok(j).text().length() == 4
                && (anchored || e.tok(j).prefix().equals("ב"))) {
            int v = e.value(j);
            if (v / 100 <= 23 && v % 100 < 60 && !e.year(j)) {
                return new Hit<>(ClockTime.of(v / 100, v % 100, Grain.MINUTE), j + 1);
            }
        }
        Number n = number(e, j);
        if (n == null || n.value() > 24 || (e.num(j) && e.tok(j).text().length() > 2)) {
            return null;
        }
        if (!e.num(j) && n.value() == 0) {
            return null;
        }
        Hit<ClockTime> withMinutes = minutesAfter(e, ClockTime.of(n.value(), 0, Grain.HOUR), n.end());
        boolean marked = e.partSaid(n.end()) != null
                || minutesWordAhead(e, n.end())
                || (withMinutes.value().grain() == Grain.MINUTE && e.partSaid(withMinutes.end()) != null);
        boolean allowed = anchored
                || (j == i
                        && n.prefix().isEmpty()
                        && i > 0
                        && e.tok(i - 1).isWord()
                        && ABOUT_A_TIME.contains(e.tok(i - 1).text()))
                || (e.num(j) && j == i && timePrefix(n.prefix(), ctx))
                || (!e.num(j) && j == i && timePrefix(n.prefix(), ctx) && n.value() <= 12)
                || ((n.prefix().isEmpty() || n.prefix().equals("ל")) && marked)
                || (n.prefix().isEmpty() && e.num(j) && acc != null && acc.date != null && bareHourFollows(e, n.end()))
                || (j == i && n.prefix().equals("ל") && feminineHour(e, j) && e.bareUnit(n.end()) == null);
        if (!allowed || (!e.num(j) && n.value() > 12 && !anchored)) {
            return null;
        }
        return withMinutes;
    }

    /** "בערך", "בסביבות", "לקראת" before a time say it is about then; "על הבוקר" is the morning. */
    private static final Set<String> LEADING_TO_A_TIME = Set.of("בערך", "בסביבות", "סביבות", "סביב", "לקראת");

    /**
     * Past "," "ב" or "על" between two parts ("מחר, ב-8", "יום שני על הבוקר") and the words before a
     * time ("בסביבות 8", "על הבוקר"); "כל היום" ("כל היום ביום שישי") is the engine's {@link Role#ALL_DAY}.
     */
    @Override
    int partStart(Engine e, int q, boolean later) {
        if (later && (e.sym(q, ',') || e.word(q, "ב", "על"))) {
            q++;
        }
        if (q + 1 < e.size
                && e.tok(q).isWord()
                && LEADING_TO_A_TIME.contains(e.tok(q).text())) {
            return q + 1; // about: the time that follows is what counts
        }
        return e.word(q, "על") && e.partOfDay(q + 1) != null ? q + 1 : q; // "על הבוקר": first thing in the morning
    }

    @Override
    boolean readsOwnHours() {
        return true;
    }

    /** Whether what follows token {@code i} makes the number before it an hour: a part of the day or minutes. */
    @Override
    boolean clockAhead(Engine e, int i) {
        return e.partSaid(i) != null || minutesWordAhead(e, i);
    }

    /**
     * Whether a number's prefix letters make it an hour, by what they say: "ב" is at ("ב-8", "וב-9");
     * in an interval "מ" from, "ל" to, "ו" and, or none ("מ-8 עד 10", "בין 3 ל-5"). "עד" written
     * onto the number is until.
     */
    private boolean timePrefix(String p, Grammar.Context ctx) {
        boolean interval = ctx == Grammar.Context.INTERVAL;
        if (p.equals("עד") || (interval && p.equals("ועד"))) {
            return true;
        }
        boolean at = false;
        for (int k = 0; k < p.length(); k++) {
            char c = p.charAt(k);
            if (prefixLetterMeans(c, Role.AT)) {
                at = true;
            } else if (!prefixLetterMeans(c, Role.AND)
                    && !(interval && (prefixLetterMeans(c, Role.FROM) || prefixLetterMeans(c, Role.TO)))) {
                return false;
            }
        }
        return at || interval;
    }

    /** A whole number of up to 90 at token {@code i}: "8", "ב-8", "בשמונה", "עשרים ושלוש", "אחת עשרה"; or null. */
    private Number number(Engine e, int i) {
        if (i >= e.size) {
            return null;
        }
        if (e.num(i)) {
            return new Number(e.value(i), e.tok(i).prefix(), i + 1);
        }
        Number word = numberWord(e, i);
        if (word == null) {
            return null;
        }
        if (word.value() >= 20) {
            Number unit = numberWord(e, i + 1);
            if (unit != null && unit.prefix().equals("ו") && unit.value() < 10) {
                return new Number(word.value() + unit.value(), word.prefix(), i + 2);
            }
            if (e.num(i + 1) && e.tok(i + 1).prefix().equals("ו") && e.value(i + 1) < 10) {
                return new Number(word.value() + e.value(i + 1), word.prefix(), i + 2);
            }
            return word;
        }
        if (word.value() < 10 && e.word(i + 1, "עשר", "עשרה")) {
            return new Number(10 + word.value(), word.prefix(), i + 2);
        }
        return word;
    }

    /** The cardinal a word says (1-10 or tens) with the prefix letters before it ("בשמונה"), or null. */
    private Number numberWord(Engine e, int i) {
        if (i >= e.size || !e.tok(i).isHebrew()) {
            return null;
        }
        String t = e.tok(i).text();
        return meaning(t) instanceof Meaning.Amount a
                        && a.value() == Math.rint(a.value())
                        && a.value() >= 1
                        && (a.value() <= 10 || a.value() % 10 == 0)
                ? new Number((int) a.value(), prefixOf(t), i + 1)
                : null;
    }

    private boolean feminineHour(Engine e, int i) {
        Number n = numberWord(e, i);
        return n != null
                && FEMININE_HOURS.contains(e.tok(i).text().substring(n.prefix().length()));
    }

    private boolean minutesWordAhead(Engine e, int i) {
        return e.isRole(i, Role.AND_A_HALF)
                || e.isRole(i, Role.AND_A_QUARTER)
                || (e.word(i, "פחות") && lessMinutes(e, i + 1) != null);
    }

    /** The minutes after "פחות": "רבע", "עשרה", "5 דקות". */
    private Hit<Integer> lessMinutes(Engine e, int i) {
        if (e.word(i, "רבע")) {
            return new Hit<>(15, i + 1);
        }
        Number n = number(e, i);
        if (n == null || !n.prefix().isEmpty() || n.value() < 1 || n.value() > 30) {
            return null;
        }
        int end = e.bareUnit(n.end()) == ChronoUnit.MINUTES ? n.end() + 1 : n.end();
        return new Hit<>(n.value(), end);
    }

    /** Whether a bare number after a date is an hour: what follows it ends it or says it is one ("מחר 8 בערב"). */
    private boolean bareHourFollows(Engine e, int end) {
        if (end >= e.size) {
            return true;
        }
        Token t = e.tok(end);
        if (t.kind() == Token.Kind.SYMBOL) {
            return !t.isSymbol('/') && !t.isSymbol('.') && !t.isSymbol(':') && !t.isSymbol('-');
        }
        return e.word(end, "עד", "ועד", "בדיוק") || e.partSaid(end) != null || minutesWordAhead(e, end);
    }

    /** Minutes said after the hour: "וחצי", "ורבע", "ועשרים", "ו-10 דקות", "פחות רבע". */
    private Hit<ClockTime> minutesAfter(Engine e, ClockTime t, int end) {
        if (t.grain() == Grain.HOUR) {
            int minutes = -1;
            int stop = end;
            if (e.isRole(end, Role.AND_A_HALF)) {
                minutes = 30;
                stop = end + 1;
            } else if (e.isRole(end, Role.AND_A_QUARTER)) {
                minutes = 15;
                stop = end + 1;
            } else if (e.word(end, "פחות") && lessMinutes(e, end + 1) != null) {
                Hit<Integer> less = lessMinutes(e, end + 1);
                int h = t.hour() == 1 ? 12 : t.hour() - 1;
                ClockTime c = new ClockTime(
                        h, 60 - less.value(), 0, t.meridiem(), t.twentyFourHour() || h == 0 || h > 12, Grain.MINUTE);
                return new Hit<>(c, less.end());
            } else {
                Number n = number(e, end);
                if (n != null && n.prefix().equals("ו") && n.value() >= 1 && n.value() < 60) {
                    minutes = n.value();
                    stop = n.end();
                    if (e.bareUnit(stop) == ChronoUnit.MINUTES) {
                        stop++;
                    }
                }
            }
            if (minutes >= 0) {
                t = new ClockTime(t.hour(), minutes, 0, t.meridiem(), t.twentyFourHour(), Grain.MINUTE);
                end = stop;
            }
        }
        return new Hit<>(t, end);
    }

    /** "רבע ל-12", "ברבע לשמונה", "עשרה לשמונה", "חמש דקות לשש", "רבע אחרי שמונה", "רבע לחצות". */
    private Hit<ClockTime> relativeClock(Engine e, int i, Grammar.Context ctx, boolean anchored) {
        int minutes;
        int j;
        String lead;
        boolean counted = false;
        String q = i < e.size && e.tok(i).isHebrew() ? prefixBefore(e.tok(i).text(), "רבע") : null;
        if (q != null) {
            minutes = 15;
            lead = q;
            j = i + 1;
        } else {
            Number n = number(e, i);
            if (n == null || n.value() < 1 || n.value() > 30) {
                return null;
            }
            minutes = n.value();
            lead = n.prefix();
            j = n.end();
            if (e.bareUnit(j) == ChronoUnit.MINUTES) {
                counted = true;
                j++;
            }
            if (e.num(i) && !counted) {
                return null; // "2 ל-4" is an interval
            }
            if (ctx == Grammar.Context.INTERVAL && !counted) {
                return null;
            }
        }
        if (!(lead.isEmpty() || lead.equals("ב") || lead.equals("וב") || anchored)) {
            return null;
        }
        if (e.word(j, "אחרי") && (q != null || counted)) {
            Number after = number(e, j + 1); // "רבע אחרי שמונה": a quarter past eight
            if (after == null || !after.prefix().isEmpty() || after.value() < 1 || after.value() > 12) {
                return null;
            }
            return new Hit<>(ClockTime.of(after.value(), minutes, Grain.MINUTE), after.end());
        }
        Number h = number(e, j);
        if (h == null || !h.prefix().equals("ל") || h.value() < 1 || h.value() > 24) {
            if (e.meaningAt(j) instanceof Meaning.Clock c && c.hour() == 24 && e.prefixSays(j, Role.TO)) {
                return new Hit<>(new ClockTime(23, 60 - minutes, 0, Meridiem.NONE, true, Grain.MINUTE), j + 1);
            }
            return null;
        }
        if (!e.num(j) && h.value() > 12) {
            return null;
        }
        int hour = h.value() - 1;
        if (hour == 0) {
            hour = 12;
        }
        ClockTime c = new ClockTime(hour, 60 - minutes, 0, Meridiem.NONE, hour > 12, Grain.MINUTE);
        return new Hit<>(c, h.end());
    }

    /** The families of the engine this language reads, computed once. */
    private static final Set<Engine.Family> FAMILIES = EnumSet.of(
            Engine.Family.DAYS,
            Engine.Family.DATES,
            Engine.Family.PERIODS,
            Engine.Family.WEEKDAYS,
            Engine.Family.NAMED_DAYS,
            Engine.Family.MONTHS_IN_YEARS,
            Engine.Family.DAYS_OF_RELATIVE_MONTHS,
            Engine.Family.QUARTERS_OF_YEARS,
            Engine.Family.HOLIDAYS,
            Engine.Family.PARTS_OF_DAY,
            Engine.Family.RECURRENCES,
            Engine.Family.AMOUNTS,
            Engine.Family.SPANS,
            Engine.Family.CLOCKS,
            Engine.Family.ZONES);

    @Override
    Set<Engine.Family> families() {
        return FAMILIES;
    }

    /** "מאי" alone, with no prefix, is also a name ("במאי" is in May). */
    @Override
    boolean notAMonth(Engine e, int name, int end) {
        return e.tok(name).text().equals("מאי");
    }

    /** A unit said alone is one of it: "בעוד שנה", "בעוד שעה". */
    @Override
    boolean bareUnitIsOne() {
        return true;
    }

    /** "ה-13", with the article, is the 13th of the month. */
    @Override
    boolean ordinalByPrefix(String numberPrefix) {
        return numberPrefix.equals("ה");
    }

    /** "כל חודש ב-15": the 15th of every month. */
    @Override
    boolean numberAfterMonthlyIsItsDay() {
        return true;
    }

    @Override
    ShortYears shortYears() {
        return ShortYears.AFTER_ANY_DATE;
    }

    /** "ב-2027", "ב2027": in that year. */
    @Override
    boolean yearMarkedBy(String numberPrefix) {
        return numberPrefix.equals("ב");
    }

    /** "שנת 2027", "בשנת 2027": the construct state of "שנה" names the year. */
    @Override
    boolean yearAfterUnit(String word) {
        return prefixBefore(word, "שנת") != null;
    }

    @Override
    OrdinalsAlone ordinalsAlone() {
        return OrdinalsAlone.NONE;
    }

    @Override
    DayOfWeek weekStart() {
        return DayOfWeek.SUNDAY;
    }

    /** "9 עד 11": an interval needs no "from" when one of its ends is clearly a time. */
    @Override
    boolean intervalWithoutFrom() {
        return true;
    }

    @Override
    boolean dayFirst() {
        return true;
    }

    @Override
    boolean clock24() {
        return true;
    }
}
