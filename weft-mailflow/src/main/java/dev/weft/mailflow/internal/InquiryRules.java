package dev.weft.mailflow.internal;

import dev.weft.language.NumberWords;
import dev.weft.language.RequestActs;
import dev.weft.time.Grain;
import dev.weft.time.Language;
import dev.weft.time.TimeExpression;
import dev.weft.time.TimeParser;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.Month;
import java.time.YearMonth;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The offline parse of a venue inquiry, English or Hebrew, by rules: days (weft-time, with ranges and
 * alternatives it does not read as one: "12-14 December", "June 5 or 12", "בין 12 ל-14 בדצמבר"),
 * guest counts in digits or words, the event, a budget, the sender's name and language, and whether it
 * asks to book at all. Thread-safe.
 */
public final class InquiryRules {
    private static final TimeParser TIME = TimeParser.create();

    private static final String EN_MONTH =
            "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
                    + "|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
    private static final String HE_MONTH =
            "(ינואר|פברואר|מרץ|מרס|אפריל|מאי|יוני|יולי|אוגוסט|ספטמבר|אוקטובר|נובמבר|דצמבר)";
    private static final String ORD = "(?:st|nd|rd|th)?";
    private static final String YEAR = "(?:,?\\s*(\\d{4}))?";

    /** "12-14 December", "12th to 14th of December 2026", "12 and 13 Dec" */
    private static final Pattern EN_DAYS_MONTH = Pattern.compile(
            "\\b(?:the\\s+)?(\\d{1,2})" + ORD
                    + "\\s*(-|–|—|to|until|till|through|thru|and|or|&|/)\\s*(?:the\\s+)?(\\d{1,2})" + ORD
                    + "\\s+(?:of\\s+)?" + EN_MONTH + YEAR + "\\b",
            Pattern.CASE_INSENSITIVE);
    /** "December 12-14", "Dec 12th to 14th, 2026", "June 5 or 12" */
    private static final Pattern EN_MONTH_DAYS = Pattern.compile(
            "\\b" + EN_MONTH + "\\s+(?:the\\s+)?(\\d{1,2})" + ORD
                    + "\\s*(-|–|—|to|until|till|through|thru|and|or|&|/)\\s*(?:the\\s+)?(\\d{1,2})" + ORD
                    + "(?!\\s*(?:[:.]\\d|am|pm|a\\.m|p\\.m|guests|people|pax|persons|hours|h\\b))" + YEAR + "\\b",
            Pattern.CASE_INSENSITIVE);
    /** "12-14 בדצמבר", "בין ה-12 ל-14 בדצמבר", "5 או 12 ביוני" */
    private static final Pattern HE_DAYS_MONTH = Pattern.compile(
            "(?:בין\\s+)?(?:ה-?|ב-?|מ-?)?(\\d{1,2})\\s*(-|–|עד|ל-?|ועד|או|ו-?)\\s*(?:ה-?|ל-?|ב-?)?(\\d{1,2})\\s+(?:ב|ל|של\\s+)?"
                    + HE_MONTH + "(?:\\s*(\\d{4}))?");
    /** "12-14.12", "12-14/12/2026" */
    private static final Pattern NUMERIC_RANGE =
            Pattern.compile("(?<![\\d/.])(\\d{1,2})\\s*-\\s*(\\d{1,2})[./](\\d{1,2})(?:[./](\\d{2,4}))?(?![\\d/])");

    /** "the second weekend of January", "first weekend in May 2027". */
    private static final Pattern EN_NTH_WEEKEND = Pattern.compile(
            "\\b(?:the\\s+)?(first|second|third|fourth|last|1st|2nd|3rd|4th)\\s+weekend\\s+(?:of|in)\\s+" + EN_MONTH
                    + YEAR + "\\b",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    /** "סוף השבוע השני של ינואר", "בסופ\"ש הראשון במאי". */
    private static final Pattern HE_NTH_WEEKEND = Pattern.compile("(?:ב|ל)?(?:סוף\\s*(?:ה)?שבוע|סופ[\"״]?ש|סופש)\\s+"
            + "(ה?(?:ראשון|שני|שלישי|רביעי|אחרון))\\s+(?:של\\s+|ב|ל)?" + HE_MONTH + "(?:\\s*(\\d{4}))?");

    private static final Pattern VAGUE = Pattern.compile(
            "(?i)\\b(early|late|beginning|end of|mid|middle|sometime)\\b|תחילת|בתחילת|סוף|בסוף|אמצע|באמצע|מתישהו");
    private static final Pattern NAMES_DAY =
            Pattern.compile("(?iu).*\\b\\d{1,2}(st|nd|rd|th)\\b.*|.*\\d[/.\\-]\\d.*|.*\\b("
                    + "mon|tue|wed|thu|fri|sat|sun|today|tomorrow|weekend|week|month|year|day|christmas|eve|easter|thanksgiving"
                    + "|halloween|valentine|hanukkah|passover|rosh|yom|new\\s+year)\\w*.*|"
                    + ".*(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec).*|"
                    + ".*(ראשון|שני|שלישי|רביעי|חמישי|שישי|שבת|היום|מחר|מחרתיים|סופ\"ש|סוף שבוע|שבוע|חודש|שנה|חנוכה|פסח|פורים|סוכות|שבועות"
                    + "|ראש השנה|ט\"ו|ל\"ג|ינואר|פברואר|מרץ|מרס|אפריל|מאי|יוני|יולי|אוגוסט|ספטמבר|אוקטובר|נובמבר|דצמבר|תשרי|חשוון|כסלו"
                    + "|טבת|שבט|אדר|ניסן|אייר|סיוון|תמוז|אב|אלול).*");

    private static final String EN_GUEST_NOUN =
            "(?:guests?|people|persons?|pax|attendees|adults|invitees|participants|ppl"
                    + "|covers|heads|diners|visitors|employees|colleagues|friends|family\\s+members|kids|children|delegates|pp"
                    + "|of\\s+us|individuals|seated|standing|ladies|women|men|girls|boys|students|members|seniors|teens|teenagers|youngsters|kids"
                    + "|classmates|alumni|trainees|clients|customers|volunteers|staff|workers|relatives|family|cousins|graduates"
                    + "|parents|grandparents|couples|souls|bodies|participants|team\\s+members|partners|executives|managers|speakers)";
    private static final String NUMBER = "(\\d{1,3}(?:,\\d{3})|\\d{1,5}|" + NumberWords.ENGLISH + ")(?:ish|\\+)?";
    private static final String NOT_A_COUNT =
            "(?!\\s*(?:hours?|hrs?|minutes?|mins?|days?|nights?|am|pm|a\\.m|p\\.m|o'?clock|:|%|\\$|usd|eur|nis|ils"
                    + "|k\\b|courses?|years?|weeks?|months?|couples|rooms?|tables?|st\\b|nd\\b|rd\\b|th\\b|[./-]\\d))";
    private static final List<Pattern> EN_GUESTS = List.of(
            Pattern.compile("(?i)(?<![\\d./])\\b" + NUMBER + "\\s*(?:-|–|to|or)\\s*" + NUMBER
                    + "\\+?\\s+(?:[a-z'-]+\\s+)?" + EN_GUEST_NOUN + "\\b"),
            Pattern.compile("(?i)\\bbetween\\s+" + NUMBER + "\\s+and\\s+" + NUMBER + "\\s+(?:[a-z'-]+\\s+)?"
                    + EN_GUEST_NOUN + "\\b"),
            Pattern.compile("(?i)\\b" + NUMBER
                    + "\\+?\\s+(?:(?!(?:for|on|in|at|to|by|of|from|and|or|the)\\b)[a-z'-]+\\s+){0,2}?" + EN_GUEST_NOUN
                    + "\\b"),
            Pattern.compile(
                    "(?i)\\b(?:guests?|people|attendees|pax|headcount|head\\s+count|guest\\s+count|number\\s+of\\s+"
                            + "(?:guests|people|attendees|participants)|# of guests|participants|group\\s+size|party\\s+size|attendance|expected\\s+attendance|guest\\s+list|covers|seats|attending)\\s*"
                            + "(?:is|will\\s+be|of|:|=|-|around|about|approx\\.?|approximately|roughly|~|\\s)*\\s*"
                            + NUMBER + "\\b" + NOT_A_COUNT),
            Pattern.compile(
                    "(?i)\\b(?:party|group|team|table|gathering|crowd|company|event|dinner|lunch|reception|celebration|club|crew|class"
                            + "|family|choir|delegation|committee|department|congregation|association|society|cohort|troop"
                            + "|meeting|banquet|room|space|place|venue|something|seating|capacity|seats|brunch)\\s+(?:of|for)\\s+(?:about\\s+|around\\s+"
                            + "|approximately\\s+|roughly\\s+|up\\s+to\\s+|~)?" + NUMBER + "\\b" + NOT_A_COUNT),
            Pattern.compile(
                    "(?i)\\b(?:we(?:'ll|'d| will| would|'re going to| are going to)?\\s+be|we\\s+are|we're|there\\s+will\\s+be"
                            + "|there'll\\s+be|expecting|expect|invite|inviting|hosting|accommodate|fit|seat|host)\\s+(?:about\\s+|around\\s+"
                            + "|approximately\\s+|roughly\\s+|up\\s+to\\s+|some\\s+|~)?" + NUMBER + "\\b"
                            + NOT_A_COUNT),
            Pattern.compile(
                    "(?i)\\bwith\\s+(?:about\\s+|around\\s+|approximately\\s+|roughly\\s+|up\\s+to\\s+|~)?" + NUMBER
                            + "\\s+(?!(?:hours|days|minutes|nights|weeks|months|years|courses|rooms|tables|dollars|euros|shekels)\\b)[a-z]+(?:s|ren|ple)\\b"),
            Pattern.compile(
                    "(?i)\\bfor\\s+(?:about\\s+|around\\s+|approximately\\s+|roughly\\s+|up\\s+to\\s+|~)?" + NUMBER
                            + "\\s*(?:guests|people|persons|pax)?\\s*(?=[,.!?;)]|$|\\s+(?:on|in|at|this|next|for|and|from|people))"));

    private static final String HE_GUEST_NOUN =
            "(?:אורחים|אורחות|איש|אנשים|משתתפים|משתתפות|מוזמנים|מוזמנות|סועדים|נפשות|מבוגרים|ילדים"
                    + "|עובדים|חברים|חברות|חברי\\s+צוות|בנות|בנים|נשים|גברים|סטודנטים|תלמידים|חניכים|בני\\s+משפחה|בני\\s+המשפחה"
                    + "|קרובי\\s+משפחה|הורים|חיילים|לקוחות|מתנדבים|זוגות|ילדות|נערים|נערות|מנהלים|בוגרים|חברי\\s+מחזור)";
    private static final String HE_NUMBER = "(\\d{1,3}(?:,\\d{3})|\\d{1,5}|" + NumberWords.HEBREW + ")";
    private static final String HE_NOT_A_COUNT = "(?!\\s*(?:שעות|שעה|ימים|יום|לילות|ש\"ח|₪|שקל|אלף|%|:|\\.\\d|/\\d|-\\d"
            + "|ב(?:ינואר|פברואר|מרץ|אפריל|מאי|יוני|יולי|אוגוסט|ספטמבר|אוקטובר|נובמבר|דצמבר)|ל(?:ינואר|פברואר|מרץ|אפריל|מאי|יוני"
            + "|יולי|אוגוסט|ספטמבר|אוקטובר|נובמבר|דצמבר)))";
    private static final List<Pattern> HE_GUESTS = List.of(
            Pattern.compile("(?<![\\d./])(?:בין\\s+)?(?:כ-?|ל-?|ה-?)?" + HE_NUMBER
                    + "\\s*(?:-|–|עד|ל-?|או)\\s*(?:כ-?|ל-?)?" + HE_NUMBER + "\\s+" + HE_GUEST_NOUN),
            Pattern.compile("(?:כ-?\\s?|ל-?\\s?|עבור\\s+|של\\s+|עד\\s+|בערך\\s+|כמעט\\s+|מעל\\s+|ה-?)?" + HE_NUMBER
                    + "\\s+" + HE_GUEST_NOUN),
            Pattern.compile(
                    "(?:מספר\\s+(?:ה)?(?:אורחים|משתתפים|מוזמנים|אנשים|המוזמנים|האורחים)|כמות\\s+(?:ה)?(?:אורחים|משתתפים|מוזמנים|אנשים)"
                            + "|אורחים|משתתפים|מוזמנים)\\s*(?::|-|–|=|הוא|יהיה|כ-?|בערך|של|\\s)*\\s*(?:כ-?\\s?)?"
                            + HE_NUMBER + HE_NOT_A_COUNT),
            Pattern.compile("(?:אנחנו|נהיה|יהיו|יגיעו|מגיעים|קבוצה\\s+של|קבוצת|צוות\\s+של|אירוע\\s+(?:של|ל-?)|עבור)\\s*"
                    + "(?:בערך\\s+|כ-?\\s?|עד\\s+)?" + HE_NUMBER + HE_NOT_A_COUNT + "(?=\\s|,|\\.|$|!|\\?)"),
            Pattern.compile("(?<![א-ת])ל-?" + HE_NUMBER + HE_NOT_A_COUNT
                    + "(?=\\s*(?:,|\\.|$|!|\\?|\\s+(?:ב|ביום|בתאריך|בשבת)))"));

    private static final Map<String, String> EVENTS = events();

    private static Map<String, String> events() {
        Map<String, String> map = new LinkedHashMap<>();
        // Most specific first: "bat mitzvah" before "mitzvah", "engagement party" before "party".
        event(map, "bat mitzvah", "\\bbat[\\s-]?mitz?vah?\\b", "בת[\\s-]?מצו?ו?ה");
        event(map, "bar mitzvah", "\\bbar[\\s-]?mitz?vah?\\b", "בר[\\s-]?מצו?ו?ה");
        event(map, "bnei mitzvah", "\\bbnei[\\s-]?mitz?vah\\b", "בני[\\s-]?מצו?ו?ה");
        event(
                map,
                "wedding",
                "\\b(wedding|nuptials|marriage\\s+ceremony|get(?:ting)?\\s+married)\\b",
                "חתונה|חתונת|חופה|להתחתן|מתחתנים|נישואים");
        event(map, "engagement party", "\\bengagement\\b|\\bengaged\\b", "אירוסין|אירוסים|אירוסי|התארסנו");
        event(map, "rehearsal dinner", "\\brehearsal\\s+dinner\\b", "ארוחת\\s+חזרה");
        event(map, "henna", "\\bhenna\\b", "חינה");
        event(map, "brit", "\\bbrit(\\s+milah)?\\b|\\bbris\\b", "ברית\\s+מילה|ברית|בריתה");
        event(map, "baby shower", "\\bbaby\\s+shower\\b", "מסיבת\\s+לידה|בייבי\\s+שאוור");
        event(map, "bridal shower", "\\bbridal\\s+shower\\b", "מסיבת\\s+כלה");
        event(
                map,
                "bachelor party",
                "\\b(bachelorette|hen\\s+party|bachelor|stag)\\b",
                "מסיבת\\s+רווקות|מסיבת\\s+רווקים");
        event(map, "anniversary", "\\banniversary\\b", "יום\\s+נישואין|יום\\s+נישואים");
        event(
                map,
                "vow renewal",
                "\\b(renew(?:ing)?\\s+(?:our|their|the)\\s+vows|vow\\s+renewal)\\b",
                "חידוש\\s+נדרים|חידוש\\s+הנדרים");
        event(
                map,
                "birthday",
                "\\b(birthday|bday|b-day)\\b",
                "יום\\s+הולדת|יום\\s+ההולדת|יומולדת|יום-הולדת|יום\\s+הולדתו|יום\\s+הולדתה");
        event(map, "graduation", "\\bgraduation\\b", "טקס\\s+סיום|מסיבת\\s+סיום|סיום\\s+לימודים");
        event(map, "conference", "\\b(conference|convention|summit)\\b", "כנס");
        event(
                map,
                "workshop",
                "\\b(seminar|workshop|training|offsite|off-site|retreat|hackathon)\\b",
                "סמינר|סדנה|סדנת|השתלמות|יום\\s+גיבוש|גיבוש");
        event(map, "product launch", "\\b(product\\s+launch|launch\\s+event|launch\\s+party)\\b", "השקה|השקת");
        event(
                map,
                "fundraiser",
                "\\b(fundraiser|fundraising|charity\\s+gala|charity\\s+dinner|gala)\\b",
                "התרמה|ערב\\s+התרמה|גאלה");
        event(map, "memorial", "\\b(memorial|shiva|funeral)\\b", "אזכרה|אזכרת|לוויה");
        event(
                map,
                "holiday party",
                "\\b(christmas\\s+party|holiday\\s+party|new\\s+year'?s?\\s+party|end[\\s-]of[\\s-]year\\s+party)\\b",
                "הרמת\\s+כוסית|מסיבת\\s+סוף\\s+שנה|מסיבת\\s+חנוכה");
        event(
                map,
                "corporate event",
                "\\b(corporate|company|office|team|business|client|staff|employee)\\s+(event|party|dinner|gathering"
                        + "|meeting|function|evening|day|celebration|lunch|offsite)\\b",
                "אירוע\\s+חברה|ערב\\s+חברה|אירוע\\s+עסקי|ערב\\s+צוות"
                        + "|אירוע\\s+לעובדים|ערב\\s+גיבוש|אירוע\\s+עובדים|ארוחת\\s+ערב\\s+לחברה|אירוע\\s+של\\s+החברה");
        event(map, "meeting", "\\b(board\\s+meeting|meeting|meetup)\\b", "ישיבה|ישיבת|פגישה|פגישת");
        event(map, "reunion", "\\breunion\\b", "מפגש\\s+מחזור|מפגש\\s+משפחתי|כנס\\s+מחזור");
        event(map, "reception", "\\b(cocktail|reception)\\b", "קבלת\\s+פנים|קוקטייל");
        event(map, "dinner", "\\b(dinner|lunch|brunch|banquet)\\b", "ארוחת\\s+ערב|ארוחת\\s+צהריים|ארוחה|סעודה|בראנץ'");
        event(map, "party", "\\b(party|celebration|celebrate)\\b", "מסיבה|מסיבת|חגיגה|לחגוג|חגיגת");
        return map;
    }

    /** An event by its English pattern and its Hebrew words, these as whole words with their prefixes (ב, ל, ה, ו, מ, ש, כ). */
    private static void event(Map<String, String> map, String label, String english, String hebrew) {
        map.put("(?iu)" + english + "|" + HE_WORD_START + "(?:" + hebrew + ")(?:ים|ות)?(?![א-ת])", label);
    }

    /** Where a Hebrew word starts, its prefix letters with it. */
    static final String HE_WORD_START = "(?<![א-ת])[והבלמשכ]{0,2}";

    private static final Pattern BOOKING = Pattern.compile(
            "(?iu)\\b(book|booking|reserve|reservation|availability|available|avail"
                    + "|free\\s+on|hire|rent|rental|host(?:ing)?|hold\\s+(?:the|a)\\s+date|quote|quotation|pricing|price|prices|rates?|venue"
                    + "|looking\\s+for\\s+a\\s+(?:place|venue|space|location|room)|interested\\s+in|do\\s+you\\s+have|would\\s+like\\s+to"
                    + "|we'?d\\s+like|inquiry|enquiry|inquiring|enquiring|planning|plan\\s+to|organi[sz]e|event|space|hold)\\b"
                    + "|להזמין|הזמנה|הזמנת|פנוי|פנויה|פנויים|זמינות|זמין|זמינה|אולם|אירוע|לשריין|שריון|הצעת\\s+מחיר|מחיר|מחירים|מעוניינים|מעוניין"
                    + "|מעוניינת|לערוך|לקיים|מחפשים|מחפש|מחפשת|מקום|לתאם|להשכיר|השכרה|לחגוג|מתכננים|מתכנן|מתכננת|אפשרות|אפשרי");
    /**
     * A booking the sender already has ("our booking", "my reservation", "we booked", "is still on",
     * "ההזמנה שלנו", "שריינו", "עדיין בתוקף"): what the email asks about it — to confirm, change or
     * cancel it — is for a person, never a new inquiry. Whether it asks to read or to change is the
     * language layer's ({@link RequestActs}).
     */
    private static final Pattern EXISTING_BOOKING = Pattern.compile(
            "(?iu)\\b(?:my|our)\\s+(?:\\w+\\s+)?(?:booking|reservation)s?\\b"
                    + "|\\b(?:we|i)\\s+(?:have\\s+|had\\s+|already\\s+)?(?:booked|reserved)\\b"
                    + "|\\b(?:is|are)\\s+still\\s+(?:booked|on|reserved|confirmed|happening)\\b"
                    + "|\\b(?:move|reschedule|postpone|push\\s+back|change|cancel|call\\s+off)\\s+"
                    + "(?:the\\s+(?:date|time|day|number\\s+of\\s+guests)\\s+(?:of|for)\\s+)?(?:my|our|the)\\b"
                    + "|(?:ה)?(?:הזמנה|שריון|אירוע|חתונה|מסיבה)\\s+(?:שלנו|שלי)\\s+(?:עדיין|כבר)"
                    + "|(?<![א-ת])(?:ה)?(?:הזמנה|שריון)\\s+(?:שלנו|שלי)(?![א-ת])"
                    + "|(?<![א-ת])(?:הזמנו|שריינו|הזמנתי|שריינתי|סגרנו)(?![א-ת])|עדיין\\s+בתוקף"
                    + "|(?<![א-ת])(?:ל)?(?:להזיז|להעביר|לדחות|לבטל|תזיזו|תבטלו|תדחו)\\s+את\\s+(?:ה)?\\S+\\s+(?:שלנו|שלי)(?![א-ת])");

    /** What is not a booking at all, for a person: refunds, complaints, invoices, jobs, offers, lost property. */
    private static final Pattern NOT_A_BOOKING = Pattern.compile(
            "(?iu)\\b(cancell?ation|refund|complain|complaint|unsubscribe|invoice"
                    + "|receipt|payment\\s+(?:failed|received)|job|position|resume|cv|apply|application|we\\s+offer|our\\s+services|seo"
                    + "|partnership|sponsorship\\s+deck|newsletter|lost\\s+and\\s+found|lost\\s+property|left\\s+my|forgot\\s+my|i\\s+lost)\\b"
                    + "|ביטול|החזר\\s+כספי|תלונה|חשבונית|קבלה|משרה|קורות\\s+חיים|הסרה|אנו\\s+מציעים|השירותים\\s+שלנו|שכחתי|אבידה|השארתי");

    private static final Pattern ROOMS_QUESTION =
            Pattern.compile("(?iu)(what|which)\\s+(rooms|spaces|halls|venues)|how\\s+many\\s+(people|guests)"
                    + "\\s+(can|does|do|will)|capacity|how\\s+big|rooms\\s+do\\s+you\\s+have|איזה\\s+(חדרים|אולמות|חללים)|אילו\\s+(חדרים|אולמות|חללים)"
                    + "|כמה\\s+(אנשים|אורחים|איש)\\s+(נכנסים|אפשר|יכולים|ניתן)|קיבולת|מה\\s+הגודל|כמה\\s+מקומות");
    private static final Pattern QUESTION_MARK = Pattern.compile("[?？]");

    private static final Pattern MONEY =
            Pattern.compile("(?iu)(?:(\\$|€|£|₪|usd|eur|gbp|nis|ils)\\s?(\\d[\\d,.]*\\s?k?)"
                    + "|(\\d[\\d,.]*\\s?k?)\\s?(\\$|€|£|₪|usd|eur|gbp|nis|ils|dollars?|euros?|pounds?|shekels?|ש\"ח|שח|שקלים|שקל|ש״ח"
                    + "|אלף\\s+(?:ש\"ח|שקל|שקלים|ש״ח|דולר|יורו)|דולר|יורו))");
    private static final Pattern BUDGET_WORD =
            Pattern.compile("(?iu)budget|spend|up\\s+to|max(imum)?|תקציב|עד|לא\\s+יותר|להוציא");

    private static final Pattern CLOSING = Pattern.compile(
            "(?iu)^\\s*(best|regards|kind\\s+regards|best\\s+regards|warm\\s+regards|warmly|thanks|thank\\s+you|many\\s+thanks|cheers"
                    + "|sincerely|yours|all\\s+the\\s+best|תודה|תודה\\s+רבה|בברכה|בתודה|בתודה\\s+מראש|תודה\\s+מראש|להתראות|יום\\s+טוב"
                    + "|שלך|שלכם)[,.!]?\\s*$");

    private InquiryRules() {}

    /** The parse of an email's subject and text, received at {@code now} (the venue's zone). */
    public static Inquiry parse(
            String subject, String text, String signature, String fromName, String venueLanguage, ZonedDateTime now) {
        String body =
                (subject.replaceFirst("(?i)^\\s*((re|fw|fwd|aw|tr|השב|הועבר)\\s*:\\s*)+", "") + "\n" + text).strip();
        String language = language(body, venueLanguage);
        LocalDate today = now.toLocalDate();
        List<List<LocalDate>> options = new ArrayList<>();
        List<LocalDate> past = new ArrayList<>();
        Optional<YearMonth> period = Optional.empty();
        // Date ranges first (their days are not guests), then guest counts (their numbers are not days).
        StringBuilder forGuests = new StringBuilder(body);
        StringBuilder masked = new StringBuilder(body);
        for (Pattern range : List.of(EN_DAYS_MONTH, EN_MONTH_DAYS, HE_DAYS_MONTH, NUMERIC_RANGE)) {
            Matcher m = range.matcher(masked);
            while (m.find()) {
                Optional<List<List<LocalDate>>> read = ranged(range, m, today);
                if (read.isEmpty()) {
                    continue;
                }
                for (List<LocalDate> option : read.get()) {
                    addOption(options, past, option, today);
                }
                blank(masked, m.start(), m.end());
                blank(forGuests, m.start(), m.end());
            }
        }
        for (Pattern weekend : List.of(EN_NTH_WEEKEND, HE_NTH_WEEKEND)) {
            Matcher m = weekend.matcher(masked);
            while (m.find()) {
                Optional<List<LocalDate>> days = nthWeekend(weekend == HE_NTH_WEEKEND, m, today);
                if (days.isPresent()) {
                    addOption(options, past, days.get(), today);
                    blank(masked, m.start(), m.end());
                }
            }
        }
        Count count = guests(forGuests.toString(), language);
        count.spans().forEach(span -> blank(masked, span[0], span[1]));
        // weft-time reads ט"ו באב but not a prefix before it (לט"ו באב): set the prefix apart.
        Matcher prefixed = HEBREW_ABBREVIATION_PREFIX.matcher(masked);
        while (prefixed.find()) {
            masked.setCharAt(prefixed.start(), ' ');
        }
        String dated = masked.toString();
        boolean nextYear = NEXT_YEAR.matcher(body).find();
        List<LocalDate> weekdaysAlone = new ArrayList<>();
        int offset = 0;
        for (String sentence : SENTENCE.split(dated)) {
            int at = dated.indexOf(sentence, offset);
            offset = Math.max(offset, at + sentence.length());
            List<TimeExpression> found;
            try {
                found = sentence.isBlank()
                        ? List.of()
                        : TIME.find(sentence, now, language.equals("he") ? Language.HEBREW : Language.ENGLISH);
            } catch (RuntimeException e) {
                continue; // a sentence the time grammar cannot read: its other sentences still count
            }
            for (TimeExpression expression : found) {
                switch (expression) {
                    case TimeExpression.Instant instant -> {
                        if (!NAMES_DAY.matcher(clean(instant.text())).matches()
                                || namesAnEvent(
                                        dated,
                                        at + instant.span().start(),
                                        at + instant.span().end())
                                || anyWeekday(dated, at + instant.span().start(), instant.text())) {
                            continue;
                        }
                        if (instant.grain().compareTo(Grain.DAY) > 0
                                || VAGUE.matcher(instant.text()).find()
                                        && !instant.text().matches(".*\\d.*")) {
                            if (instant.grain() == Grain.MONTH
                                    || VAGUE.matcher(instant.text()).find()) {
                                period = period.or(() -> Optional.of(YearMonth.from(instant.value())));
                            }
                            continue;
                        }
                        if (instant.text()
                                .matches(
                                        "(?i).*\\b(in|within|after)\\s+\\w+\\s+(months?|years?)\\b.*|.*בעוד.*(חודש|חודשים|שנה|שנים).*")) {
                            continue;
                        }
                        LocalDate day = instant.value().toLocalDate();
                        if (nextYear
                                && day.getYear() == today.getYear()
                                && !instant.text().matches(".*\\d{4}.*")) {
                            day = day.plusYears(1);
                        }
                        if (WEEKDAY_ALONE.matcher(clean(instant.text())).matches()) {
                            weekdaysAlone.add(day);
                        } else {
                            addOption(options, past, List.of(day), today);
                        }
                    }
                    case TimeExpression.Interval interval -> {
                        if (!NAMES_DAY.matcher(clean(interval.text())).matches()) {
                            continue;
                        }
                        if (interval.grain().compareTo(Grain.DAY) > 0) {
                            period = period.or(() -> Optional.of(YearMonth.from(interval.from())));
                            continue;
                        }
                        LocalDate from = interval.from().toLocalDate();
                        LocalDate to =
                                interval.grain() == Grain.DAY ? interval.to().toLocalDate() : from;
                        List<LocalDate> days = new ArrayList<>();
                        for (LocalDate d = from; !d.isAfter(to) && days.size() < 14; d = d.plusDays(1)) {
                            days.add(d);
                        }
                        addOption(options, past, days, today);
                    }
                    case TimeExpression.Recurrence recurrence -> {
                        // a recurring booking is for a person to answer
                    }
                }
            }
        }
        // "a workshop on Thursday, followed by a dinner on Friday, December 17-18": a weekday said beside
        // dates is the weekday of one of them, not a day of its own.
        for (LocalDate day : weekdaysAlone) {
            boolean named =
                    options.stream().flatMap(List::stream).anyMatch(d -> d.getDayOfWeek() == day.getDayOfWeek());
            if (!named) {
                addOption(options, past, List.of(day), today);
            }
        }
        OptionalInt guests = count.value();
        Optional<String> event = eventType(body);
        Optional<Inquiry.Budget> budget = budget(body);
        boolean rooms = ROOMS_QUESTION.matcher(body).find();
        boolean existing = EXISTING_BOOKING.matcher(body).find();
        // The layer's words for a delete, said of a booking or as a command ("I got engaged" deletes nothing).
        boolean cancels =
                RequestActs.asksFor(RequestActs.Change.DELETE, body) && (existing || RequestActs.commandsAChange(body));
        boolean notABooking = NOT_A_BOOKING.matcher(body).find();
        boolean booking = BOOKING.matcher(body).find();
        boolean asks = QUESTION_MARK.matcher(body).find();
        String intent;
        if (existing) {
            // A booking already made: to confirm it is a read, to move or cancel it a change; either way
            // a person answers, and no room is offered for it as if it were asked for anew.
            intent = cancels ? "cancel" : RequestActs.asksOnlyToRead(body) ? "confirm" : "change";
        } else if ((cancels || notABooking)
                && !(event.isPresent() && (!options.isEmpty() || guests.isPresent()) && booking)) {
            intent = cancels ? "cancel" : "other";
        } else if ((booking || asks)
                && (event.isPresent() || !options.isEmpty() || guests.isPresent() || period.isPresent())) {
            intent = "inquiry";
        } else if (event.isPresent() && (!options.isEmpty() || guests.isPresent() || period.isPresent())
                || !options.isEmpty() && guests.isPresent()) {
            intent = "inquiry";
        } else if (rooms) {
            intent = "question";
        } else if (booking
                && asks
                && body.matches(
                        "(?isu).*\\b(book|reserve|availability|available|venue|event|hire|rent)\\b.*|.*(להזמין|פנוי|זמינות|אולם|אירוע|לשריין|השכרה).*")) {
            intent = "inquiry";
        } else {
            intent = "other";
        }
        return new Inquiry(
                intent.equals("inquiry"),
                options,
                guests,
                event,
                budget,
                name(fromName, text, signature),
                language,
                options.isEmpty() ? period : Optional.empty(),
                past,
                rooms,
                intent);
    }

    private static String clean(String text) {
        return text.replace('\n', ' ').strip();
    }

    private static void addOption(
            List<List<LocalDate>> options, List<LocalDate> past, List<LocalDate> option, LocalDate today) {
        if (option.isEmpty()) {
            return;
        }
        if (option.get(option.size() - 1).isBefore(today)) {
            past.addAll(option);
            return;
        }
        for (List<LocalDate> known : options) {
            if (known.containsAll(option)) {
                return;
            }
        }
        options.removeIf(option::containsAll);
        options.add(option);
    }

    /** The days a range or alternatives pattern names, or empty when they are not dates. */
    private static Optional<List<List<LocalDate>>> ranged(Pattern pattern, Matcher m, LocalDate today) {
        int first;
        int last;
        String joiner;
        Month month;
        String year;
        try {
            if (pattern == EN_DAYS_MONTH) {
                first = Integer.parseInt(m.group(1));
                joiner = m.group(2);
                last = Integer.parseInt(m.group(3));
                month = englishMonth(m.group(4));
                year = m.group(5);
            } else if (pattern == EN_MONTH_DAYS) {
                month = englishMonth(m.group(1));
                first = Integer.parseInt(m.group(2));
                joiner = m.group(3);
                last = Integer.parseInt(m.group(4));
                year = m.group(5);
            } else if (pattern == HE_DAYS_MONTH) {
                first = Integer.parseInt(m.group(1));
                joiner = m.group(2);
                last = Integer.parseInt(m.group(3));
                month = hebrewMonth(m.group(4));
                year = m.group(5);
            } else {
                first = Integer.parseInt(m.group(1));
                joiner = "-";
                last = Integer.parseInt(m.group(2));
                int monthNumber = Integer.parseInt(m.group(3));
                if (monthNumber < 1 || monthNumber > 12) {
                    return Optional.empty();
                }
                month = Month.of(monthNumber);
                year = m.group(4) == null ? null : (m.group(4).length() == 2 ? "20" + m.group(4) : m.group(4));
            }
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (month == null || first < 1 || last < 1 || first > 31 || last > 31) {
            return Optional.empty();
        }
        int y;
        if (year != null) {
            y = Integer.parseInt(year);
        } else {
            y = today.getYear();
            if (YearMonth.of(y, month).atEndOfMonth().isBefore(today)) {
                y++;
            }
        }
        YearMonth ym = YearMonth.of(y, month);
        if (!ym.isValidDay(first) || !ym.isValidDay(last)) {
            return Optional.empty();
        }
        String j = joiner.trim().toLowerCase(Locale.ROOT);
        boolean alternatives = j.equals("or") || j.equals("או") || j.equals("/");
        boolean both = j.equals("and") || j.equals("&") || j.startsWith("ו") && !j.equals("ועד");
        List<List<LocalDate>> out = new ArrayList<>();
        if (alternatives) {
            out.add(List.of(ym.atDay(first)));
            out.add(List.of(ym.atDay(last)));
        } else if (both) {
            out.add(List.of(ym.atDay(first), ym.atDay(last)));
        } else {
            if (last < first || last - first > 13) {
                return Optional.empty();
            }
            List<LocalDate> days = new ArrayList<>();
            for (int d = first; d <= last; d++) {
                days.add(ym.atDay(d));
            }
            out.add(days);
        }
        return Optional.of(out);
    }

    /**
     * The days of "the second weekend of January": the n-th Saturday of the month (the last one for
     * "last") with the Sunday after it in English, the Friday before it in Hebrew (an Israeli weekend);
     * the month's next occurrence that is not past unless a year is said.
     */
    private static Optional<List<LocalDate>> nthWeekend(boolean hebrew, Matcher m, LocalDate today) {
        java.util.OptionalInt nth = NumberWords.ordinal(m.group(1));
        Month month = hebrew ? hebrewMonth(m.group(2)) : englishMonth(m.group(2));
        if (nth.isEmpty() || month == null) {
            return Optional.empty();
        }
        int year = m.group(3) != null ? Integer.parseInt(m.group(3)) : today.getYear();
        YearMonth ym = YearMonth.of(year, month);
        if (m.group(3) == null && ym.atEndOfMonth().isBefore(today)) {
            ym = ym.plusYears(1);
        }
        LocalDate firstSaturday = ym.atDay(1).with(java.time.temporal.TemporalAdjusters.nextOrSame(DayOfWeek.SATURDAY));
        LocalDate saturday = nth.getAsInt() < 0
                ? ym.atEndOfMonth().with(java.time.temporal.TemporalAdjusters.previousOrSame(DayOfWeek.SATURDAY))
                : firstSaturday.plusWeeks(nth.getAsInt() - 1L);
        if (!YearMonth.from(saturday).equals(ym)) {
            return Optional.empty();
        }
        return Optional.of(hebrew ? List.of(saturday.minusDays(1), saturday) : List.of(saturday, saturday.plusDays(1)));
    }

    private static Month englishMonth(String text) {
        String t = text.toLowerCase(Locale.ROOT).replace(".", "");
        for (Month month : Month.values()) {
            if (month.name().toLowerCase(Locale.ROOT).startsWith(t.substring(0, Math.min(3, t.length())))) {
                return month;
            }
        }
        return null;
    }

    private static final List<String> HEBREW_MONTHS = List.of(
            "ינואר", "פברואר", "מרץ", "אפריל", "מאי", "יוני", "יולי", "אוגוסט", "ספטמבר", "אוקטובר", "נובמבר", "דצמבר");

    private static Month hebrewMonth(String text) {
        if (text.equals("מרס")) {
            return Month.MARCH;
        }
        int index = HEBREW_MONTHS.indexOf(text);
        return index < 0 ? null : Month.of(index + 1);
    }

    /**
     * The inquiry's language by its words (the language layer's {@link dev.weft.language.Language#of}: a Hebrew name in
     * an English mail leaves it English); the venue's language when the text does not tell.
     */
    static String language(String text, String venueLanguage) {
        return dev.weft.language.Language.of(text)
                .map(dev.weft.language.Language::code)
                .orElse(venueLanguage);
    }

    /** Sentences: split after . ! ? and a space, but not after an abbreviation ("Dec. 5th", "approx. 40"); and at line ends. */
    private static final Pattern SENTENCE = Pattern.compile(
            "(?iu)(?<!\\b(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|mr|mrs|ms|dr|st|approx|no|vs|etc|ca|tel|ph)\\.)"
                    + "(?<=[.!?])(?=\\s)|\\n");

    private static final Pattern WEEKDAY_ALONE = Pattern.compile(
            "(?iu)^(?:on\\s+)?(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?s?$|^(?:ב?יום\\s+|ב|ה)?(?:ראשון|שני|שלישי|רביעי|חמישי|שישי|שבת)(?:ות)?$");
    private static final Pattern ANY_BEFORE = Pattern.compile(
            "(?iu)\\b(?:any|which|a|some|every|other|all|weekday|the)\\s+$|(?:כל|איזה|אילו|באיזה)\\s+$");

    /** Whether a weekday alone stands for no day in particular: "any Saturday", "which Saturdays", "Saturdays". */
    private static boolean anyWeekday(String text, int from, String said) {
        String t = said.strip();
        if (!WEEKDAY_ALONE.matcher(t).matches()) {
            return false;
        }
        return t.toLowerCase(java.util.Locale.ROOT).endsWith("days")
                || t.endsWith("ות")
                || ANY_BEFORE
                        .matcher(text.substring(Math.max(0, from - 20), from))
                        .find();
    }

    private static final Pattern NEXT_YEAR =
            Pattern.compile("(?iu)\\bnext\\s+year\\b|בשנה\\s+הבאה|שנה\\s+הבאה|בשנה\\s+הבא");

    /** A guest count and where the text said it. */
    record Count(OptionalInt value, List<int[]> spans) {}

    static Count guests(String text, String language) {
        int best = -1;
        List<int[]> spans = new ArrayList<>();
        for (List<Pattern> patterns :
                language.equals("he") ? List.of(HE_GUESTS, EN_GUESTS) : List.of(EN_GUESTS, HE_GUESTS)) {
            for (Pattern pattern : patterns) {
                Matcher m = pattern.matcher(text);
                while (m.find()) {
                    int value = -1;
                    for (int g = 1; g <= m.groupCount(); g++) {
                        if (m.group(g) != null) {
                            OptionalInt n = NumberWords.parse(m.group(g));
                            if (n.isPresent()) {
                                value = Math.max(value, n.getAsInt());
                            }
                        }
                    }
                    if (value >= 2 && value <= 20_000 && !yearLike(value, m.group())) {
                        best = Math.max(best, value);
                        spans.add(new int[] {m.start(), m.end()});
                    }
                }
                if (best > 0) {
                    return new Count(OptionalInt.of(Math.max(best, sum(text))), spans);
                }
            }
        }
        return new Count(OptionalInt.empty(), spans);
    }

    private static final Pattern SUM = Pattern.compile("(?iu)" + NUMBER + "\\s+(?:[a-z]+\\s+)?" + EN_GUEST_NOUN
            + "\\s*(?:and|plus|\\+|&|,)\\s*(?:another\\s+)?" + NUMBER + "\\s+(?:[a-z]+\\s+)?" + EN_GUEST_NOUN + "|"
            + HE_NUMBER
            + "\\s+" + HE_GUEST_NOUN + "\\s*(?:ועוד|ו-?|וגם|פלוס|\\+|,)\\s*(?:עוד\\s+)?" + HE_NUMBER + "\\s+"
            + HE_GUEST_NOUN);

    /** Counts said in parts: "40 adults and 10 children" is 50. */
    private static int sum(String text) {
        Matcher m = SUM.matcher(text);
        int best = -1;
        while (m.find()) {
            int total = 0;
            for (int g = 1; g <= m.groupCount(); g++) {
                if (m.group(g) != null) {
                    total += NumberWords.parse(m.group(g)).orElse(0);
                }
            }
            best = Math.max(best, total);
        }
        return best;
    }

    private static void blank(StringBuilder text, int from, int to) {
        for (int i = from; i < to; i++) {
            if (text.charAt(i) != '\n') {
                text.setCharAt(i, ' ');
            }
        }
    }

    private static final Pattern HEBREW_ABBREVIATION_PREFIX =
            Pattern.compile("(?<![א-ת])[בלמוהש](?=[א-ת]{1,2}[\"״][א-ת])");
    private static final Pattern EVENT_AFTER = Pattern.compile(
            "(?iu)^\\s*(?:'s\\s+)?(?:eve\\s+)?(?:party|parties|dinner|lunch|event|celebration|bash|gala|gathering|do\\b|brunch|function)");
    private static final Pattern EVENT_BEFORE =
            Pattern.compile("(?u)(?:מסיבת|ארוחת|אירוע|הרמת\\s+כוסית\\s+ל|חגיגת)\\s*$");

    /** Whether a holiday named at [from, to) names the event ("a Christmas party"), not its day. */
    private static boolean namesAnEvent(String text, int from, int to) {
        String said = text.substring(from, Math.min(to, text.length()));
        if (said.matches(".*\\d.*")) {
            return false;
        }
        return EVENT_AFTER.matcher(text.substring(Math.min(to, text.length()))).find()
                || EVENT_BEFORE.matcher(text.substring(0, from)).find();
    }

    private static boolean yearLike(int value, String match) {
        return value >= 1900
                && value <= 2100
                && !match.matches("(?iu).*(guest|people|pax|אורח|איש|אנשים|משתתפ|מוזמנ).*");
    }

    static Optional<String> eventType(String text) {
        for (Map.Entry<String, String> event : EVENTS.entrySet()) {
            if (Pattern.compile(event.getKey()).matcher(text).find()) {
                return Optional.of(event.getValue());
            }
        }
        return Optional.empty();
    }

    static Optional<Inquiry.Budget> budget(String text) {
        Matcher m = MONEY.matcher(text);
        Optional<Inquiry.Budget> any = Optional.empty();
        while (m.find()) {
            String symbol = m.group(1) != null ? m.group(1) : m.group(4);
            String amount = m.group(2) != null ? m.group(2) : m.group(3);
            long value = amount(amount, symbol);
            if (value <= 0) {
                continue;
            }
            Inquiry.Budget budget = new Inquiry.Budget(value, currency(symbol));
            String before = text.substring(Math.max(0, m.start() - 40), m.start());
            if (BUDGET_WORD.matcher(before).find()) {
                return Optional.of(budget);
            }
            any = any.or(() -> Optional.of(budget));
        }
        return any;
    }

    private static long amount(String text, String symbol) {
        String t = text.trim().toLowerCase(Locale.ROOT).replace(" ", "");
        double multiplier = 1;
        if (t.endsWith("k")) {
            multiplier = 1000;
            t = t.substring(0, t.length() - 1);
        }
        if (symbol != null && symbol.startsWith("אלף")) {
            multiplier = 1000;
        }
        t = t.replaceAll(",(?=\\d{3}(\\D|$))", "");
        if (t.matches("\\d+\\.\\d{3}")) {
            t = t.replace(".", "");
        }
        try {
            return Math.round(Double.parseDouble(t.replaceAll("[.,]$", "")) * multiplier);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String currency(String symbol) {
        String s = symbol.toLowerCase(Locale.ROOT);
        if (s.contains("$") || s.startsWith("usd") || s.startsWith("dollar") || s.contains("דולר")) {
            return "USD";
        }
        if (s.contains("€") || s.startsWith("eur") || s.contains("יורו")) {
            return "EUR";
        }
        if (s.contains("£") || s.startsWith("gbp") || s.startsWith("pound")) {
            return "GBP";
        }
        return "ILS";
    }

    /** The sender's name: the display name of their address, else the line after the closing of their text or signature. */
    static Optional<String> name(String fromName, String text, String signature) {
        String display = fromName.replaceAll("[\"']", "").strip();
        if (!display.isEmpty() && !display.contains("@") && display.length() <= 60) {
            if (display.contains(",")) {
                String[] parts = display.split(",", 2);
                display = (parts[1].strip() + " " + parts[0].strip()).strip();
            }
            return Optional.of(display.split("\\s+")[0]);
        }
        String[] lines = (text + "\n" + signature).split("\\n");
        for (int i = 0; i < lines.length - 1; i++) {
            if (CLOSING.matcher(lines[i]).matches()) {
                String next = lines[i + 1].strip();
                if (!next.isEmpty()
                        && next.length() <= 40
                        && next.split("\\s+").length <= 4
                        && !next.matches(".*\\d.*")) {
                    return Optional.of(next.split("\\s+")[0].replaceAll("[,.]$", ""));
                }
            }
        }
        return Optional.empty();
    }
}
