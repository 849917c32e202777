package dev.weft.time.internal;

import dev.weft.time.Grain;
import dev.weft.time.TimeExpression.Recurrence.Frequency;
import dev.weft.time.internal.Meaning.Amount;
import dev.weft.time.internal.Meaning.Clock;
import dev.weft.time.internal.Meaning.Day;
import dev.weft.time.internal.Meaning.Length;
import dev.weft.time.internal.Meaning.Month;
import dev.weft.time.internal.Meaning.Often;
import dev.weft.time.internal.Meaning.Ordinal;
import dev.weft.time.internal.Meaning.Part;
import dev.weft.time.internal.Meaning.Role;
import dev.weft.time.internal.Meaning.Unit;
import dev.weft.time.internal.Meaning.Weekdays;
import java.time.DayOfWeek;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * Russian for the {@link Engine}. Its words inflect, so most are listed as a stem and the endings of
 * their cases ("понедельник", "понедельника", "понедельникам"); ё is read as е. What is its own and
 * no table says: the half and quarter hours counted towards the next hour ("в половине десятого" is
 * 9:30, "без четверти пять" 4:45).
 */
final class RussianLexicon extends Lexicon {

    /** The endings of a masculine noun on a hard consonant: понедельник, март, час. */
    private static final String[] HARD = {"", "а", "у", "ом", "е"};

    private static final String[] HARD_PLURAL = {"и", "ы", "ам", "ами", "ах", "ов"};

    /** The endings of a feminine noun in -а: среда, пятница, минута. */
    private static final String[] FEMININE = {"а", "у", "ы", "и", "е", "ой", "ою", ""};

    private static final String[] FEMININE_PLURAL = {"ам", "ами", "ах"};

    /** The endings of a soft masculine noun: январь, сентябрь. */
    private static final String[] SOFT = {"ь", "я", "е", "ю", "ем"};

    /** The endings of an ordinal adjective: первое, первого, первый, первая… */
    private static final String[] ORDINAL = {"ое", "ого", "ый", "ой", "ая", "ую", "ом", "ому", "ые", "ых"};

    /** The endings of an adjective on a soft consonant or a sibilant: следующий, прошлый, каждый. */
    private static final String[] ADJECTIVE = {
        "ий", "ый", "ой", "ая", "ое", "ее", "ую", "ей", "ого", "его", "ом", "ем", "ие", "ые", "их", "ых", "им", "ым"
    };

    /** Built after the tables of endings above, which it reads. */
    static final RussianLexicon INSTANCE = new RussianLexicon();

    private RussianLexicon() {
        dates();
        numbers();
        units();
        roles();
        partsAfterClock(PartOfDay.MORNING, "утра");
        partsAfterClock(PartOfDay.AFTERNOON, "дня");
        partsAfterClock(PartOfDay.EVENING, "вечера");
        partsAfterClock(PartOfDay.NIGHT, "ночи");
        ordinalEndings("го", "е", "ое", "ого", "й", "ый", "ий", "я", "ья", "ой", "ому", "ом");
    }

    private void dates() {
        words(new Day(0), "сегодня", "сегодняшний", "сегодняшнего");
        words(new Day(1), "завтра", "завтрашний", "завтрашнего");
        words(new Day(2), "послезавтра");
        words(new Day(-1), "вчера", "вчерашний", "вчерашнего");
        words(new Day(-2), "позавчера");
        weekday(DayOfWeek.MONDAY, "понедельник", HARD, HARD_PLURAL, "пн");
        weekday(DayOfWeek.TUESDAY, "вторник", HARD, HARD_PLURAL, "вт");
        weekday(DayOfWeek.WEDNESDAY, "сред", FEMININE, FEMININE_PLURAL, "ср");
        weekday(DayOfWeek.THURSDAY, "четверг", HARD, HARD_PLURAL, "чт");
        weekday(DayOfWeek.FRIDAY, "пятниц", FEMININE, FEMININE_PLURAL, "пт");
        weekday(DayOfWeek.SATURDAY, "суббот", FEMININE, FEMININE_PLURAL, "сб");
        weekday(DayOfWeek.SUNDAY, "воскресень", new String[] {"е", "я", "ю", "ем"}, new String[] {"ям", "ями"}, "вс");
        weekday(DayOfWeek.SUNDAY, "воскресени", new String[] {"е", "я", "ю", "ем"}, new String[] {"ям"}, "вск");
        List<DayOfWeek> workWeek =
                List.of(DayOfWeek.MONDAY, DayOfWeek.TUESDAY, DayOfWeek.WEDNESDAY, DayOfWeek.THURSDAY, DayOfWeek.FRIDAY);
        words(new Weekdays(workWeek, true), "будни", "будням", "будними", "будним", "будничным");
        words(new Weekdays(List.of(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY), true), "выходным", "выходными");
        String[] months = {
            "январ", "феврал", "март", "апрел", "ма", "июн", "июл", "август", "сентябр", "октябр", "ноябр", "декабр"
        };
        for (int m = 1; m <= 12; m++) {
            String stem = months[m - 1];
            String[] endings = stem.equals("март") || stem.equals("август")
                    ? HARD
                    : stem.equals("ма") ? new String[] {"й", "я", "е", "ю", "ем"} : SOFT;
            forms(new Month(m), stem, endings);
        }
        String[] abbreviations = {"янв", "фев", "мар", "апр", "май", "июн", "июл", "авг", "сен", "окт", "ноя", "дек"};
        for (int m = 1; m <= 12; m++) {
            words(new Month(m), abbreviations[m - 1]);
        }
        words(new Month(2), "февр");
        words(new Month(9), "сент");
        words(new Month(11), "нояб");
        words(new Part(PartOfDay.MORNING, false), "утро", "утром", "утречком", "поутру", "утру");
        words(new Part(PartOfDay.AFTERNOON, false), "днем", "пополудни");
        words(new Part(PartOfDay.EVENING, false), "вечер", "вечером", "вечерком", "вечеру");
        words(new Part(PartOfDay.NIGHT, false), "ночь", "ночью");
        words(new Clock(12), "полдень", "полудня", "полдня");
        words(new Clock(24), "полночь", "полуночи");
        words(new Often(Frequency.DAILY), "ежедневно", "каждодневно");
        words(new Often(Frequency.WEEKLY), "еженедельно");
        words(new Often(Frequency.MONTHLY), "ежемесячно");
        words(new Often(Frequency.YEARLY), "ежегодно");
        words(new Often(Frequency.HOURLY), "ежечасно");
    }

    private void weekday(DayOfWeek d, String stem, String[] singular, String[] plural, String abbreviation) {
        weekday(d, false, stem, singular);
        weekday(d, true, stem, plural);
        weekday(d, false, abbreviation, "");
    }

    private void numbers() {
        String[][] cardinals = {
            {"один", "одна", "одну", "одного", "одной", "одним"},
            {"два", "две", "двух", "двум"},
            {"три", "трех", "трем"},
            {"четыре", "четырех", "четырем"},
            {"пять", "пяти"},
            {"шесть", "шести"},
            {"семь", "семи"},
            {"восемь", "восьми"},
            {"девять", "девяти"},
            {"десять", "десяти"},
            {"одиннадцать", "одиннадцати"},
            {"двенадцать", "двенадцати"},
            {"тринадцать", "тринадцати"},
            {"четырнадцать", "четырнадцати"},
            {"пятнадцать", "пятнадцати"},
            {"шестнадцать", "шестнадцати"},
            {"семнадцать", "семнадцати"},
            {"восемнадцать", "восемнадцати"},
            {"девятнадцать", "девятнадцати"},
            {"двадцать", "двадцати"}
        };
        for (int n = 1; n <= cardinals.length; n++) {
            words(new Amount(n), cardinals[n - 1]);
        }
        words(new Amount(30), "тридцать", "тридцати");
        words(new Amount(40), "сорок", "сорока");
        words(new Amount(50), "пятьдесят", "пятидесяти");
        words(new Amount(1.5), "полтора", "полторы", "полутора");
        words(new Amount(2), "пару", "пара", "пары", "парочку");
        words(new Amount(3), "несколько", "нескольких");
        String[] ordinals = {
            "перв",
            "втор",
            null,
            "четверт",
            "пят",
            "шест",
            "седьм",
            "восьм",
            "девят",
            "десят",
            "одиннадцат",
            "двенадцат",
            "тринадцат",
            "четырнадцат",
            "пятнадцат",
            "шестнадцат",
            "семнадцат",
            "восемнадцат",
            "девятнадцат",
            "двадцат"
        };
        for (int n = 1; n <= ordinals.length; n++) {
            if (ordinals[n - 1] != null) {
                forms(new Ordinal(n), ordinals[n - 1], ORDINAL);
            }
        }
        forms(new Ordinal(3), "трет", "ье", "ьего", "ий", "ья", "ью", "ьем", "ьему", "ьи", "ьих");
        forms(new Ordinal(30), "тридцат", ORDINAL);
    }

    private void units() {
        words(new Length(30, ChronoUnit.MINUTES), "полчаса", "получаса");
        forms(new Unit(ChronoUnit.SECONDS), "секунд", FEMININE);
        words(new Unit(ChronoUnit.SECONDS), "сек");
        forms(new Unit(ChronoUnit.MINUTES), "минут", FEMININE);
        forms(new Unit(ChronoUnit.MINUTES), "минутк", FEMININE);
        words(new Unit(ChronoUnit.MINUTES), "мин");
        forms(new Unit(ChronoUnit.HOURS), "час", HARD);
        words(new Unit(ChronoUnit.HOURS), "часов", "часы", "ч");
        words(new Unit(ChronoUnit.DAYS), "день", "дня", "дню", "дней", "дни", "дням", "сутки", "суток");
        forms(new Unit(ChronoUnit.WEEKS), "недел", "я", "ю", "и", "е", "ей", "ь", "ям");
        words(new Unit(ChronoUnit.WEEKS), "нед");
        forms(new Unit(ChronoUnit.MONTHS), "месяц", HARD);
        words(new Unit(ChronoUnit.MONTHS), "месяцев", "месяцы", "мес");
        words(new Unit(ChronoUnit.YEARS), "год", "года", "году", "годом", "годы", "лет", "г");
    }

    private void roles() {
        role(Role.NOW, "сейчас", "щас", "немедленно", "теперь");
        role(Role.IN, "через", "спустя");
        role(Role.AGO, "назад");
        role(Role.AT, "в", "во", "к", "ко");
        role(Role.AFTER, "после");
        role(Role.BEFORE, "перед");
        role(Role.END, "конце", "конец", "концу");
        forms(Role.QUARTER, "квартал", HARD);
        words(new Often(Frequency.MONTHLY, 3), "ежеквартально");
        phrase(
                new Meaning.Holiday(new DateRef.CalendarDate(0, 1, 1)),
                "новый год",
                "нового года",
                "новым годом",
                "новому году");
        phrase(new Meaning.Holiday(new DateRef.CalendarDate(0, 1, 7)), "рождество", "рождества", "рождеству");
        phrase(new Meaning.Holiday(new DateRef.CalendarDate(0, 5, 9)), "день победы", "дня победы", "днем победы");
        role(Role.ON, "на");
        role(Role.LASTING, "на"); // "на 2 часа"
        role(Role.FROM, "с", "со", "от");
        role(Role.TO, "до", "по");
        role(Role.AND, "и");
        role(Role.WEEKEND, "выходные", "выходных", "уикенд", "уикэнд", "уикенда", "уикенде");
        role(Role.DAY_OF_MONTH, "числа", "число");
        role(Role.ABOUT, "около", "примерно", "приблизительно", "прямо", "тому", "ровно");
        role(Role.AND_A_HALF, "половиной");
        phrase(Role.THIS_TIME, "в это время", "в это же время", "в то же время");
        phrase(Role.NOW, "в данный момент", "на данный момент", "в настоящий момент", "в настоящее время");
        words(Meaning.NamedDay.IDES, "иды", "ид");
        words(Meaning.NamedDay.NONES, "ноны", "нон");
        forms(Role.NEXT, "следующ", ADJECTIVE);
        forms(Role.NEXT, "будущ", ADJECTIVE);
        forms(Role.NEXT, "ближайш", ADJECTIVE);
        forms(Role.LAST, "прошл", ADJECTIVE);
        forms(Role.LAST, "прошедш", ADJECTIVE);
        forms(Role.LAST, "предыдущ", ADJECTIVE);
        forms(Role.LAST, "последн", ADJECTIVE);
        role(Role.THIS, "этот", "эта", "это", "эту", "этой", "этом", "этого", "эти", "этих", "этим");
        forms(Role.THIS, "текущ", ADJECTIVE);
        forms(Role.EVERY, "кажд", ADJECTIVE);
    }

    /** The families of the engine this language reads, computed once. */
    private static final java.util.Set<Engine.Family> FAMILIES = java.util.EnumSet.allOf(Engine.Family.class);

    @Override
    java.util.Set<Engine.Family> families() {
        return FAMILIES;
    }

    @Override
    DayOfWeek weekStart() {
        return DayOfWeek.MONDAY;
    }

    @Override
    boolean dayFirst() {
        return true;
    }

    @Override
    boolean clock24() {
        return true;
    }

    @Override
    String fold(String word) {
        return word.indexOf('ё') >= 0 ? word.replace('ё', 'е') : word;
    }

    /**
     * The hours counted towards the next one: "в половине десятого" and "полдесятого" are 9:30, "в
     * четверть десятого" 9:15, "без четверти пять" 4:45, "без десяти девять" 8:50.
     */
    @Override
    Hit<ClockTime> ownClock(Engine e, int i, Grammar.Context ctx, InstantSpec acc) {
        if (i >= e.size || !e.tok(i).isWord()) {
            return null;
        }
        String w = fold(e.tok(i).text());
        if (w.equals("половине") || w.equals("половина") || w.equals("четверть")) {
            Integer next = nextHour(e.meaningAt(i + 1));
            int minute = w.equals("четверть") ? 15 : 30;
            return next == null
                    ? null
                    : new Hit<>(ClockTime.of(next - 1 == 0 ? 12 : next - 1, minute, Grain.MINUTE), i + 2);
        }
        if (w.equals("пол")) {
            Integer next = nextHour(e.meaningAt(i + 1)); // "в пол восьмого"
            if (next != null) {
                return new Hit<>(ClockTime.of(next - 1 == 0 ? 12 : next - 1, 30, Grain.MINUTE), i + 2);
            }
        }
        if (w.startsWith("пол") && w.length() > 5) {
            Integer next = nextHour(meaning(w.substring(3)));
            if (next != null) {
                return new Hit<>(ClockTime.of(next - 1 == 0 ? 12 : next - 1, 30, Grain.MINUTE), i + 1);
            }
        }
        if (w.equals("без")) {
            int minutes;
            int j = i + 1;
            if (j < e.size && e.tok(j).isWord() && fold(e.tok(j).text()).equals("четверти")) {
                minutes = 15;
                j++;
            } else {
                Hit<Double> a = e.amountAt(j);
                if (a == null || a.value() >= 30 || a.value() < 1 || a.value() != Math.rint(a.value())) {
                    return null;
                }
                minutes = a.value().intValue();
                j = e.meaningAt(a.end()) instanceof Unit u && u.unit() == ChronoUnit.MINUTES ? a.end() + 1 : a.end();
            }
            Hit<Double> hour = e.amountAt(j);
            if (hour == null || hour.value() < 1 || hour.value() > 12 || hour.value() != Math.rint(hour.value())) {
                return null;
            }
            int h = hour.value().intValue() - 1;
            return new Hit<>(ClockTime.of(h == 0 ? 12 : h, 60 - minutes, Grain.MINUTE), hour.end());
        }
        return null;
    }

    private static Integer nextHour(Meaning m) {
        return m instanceof Ordinal o && o.value() >= 1 && o.value() <= 12 ? o.value() : null;
    }
}
