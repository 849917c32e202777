package dev.weft.mailflow.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalDate;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The offline venue agent's replies, in English and Hebrew: availability offered, a clarifying
 * question, the rooms described. The words are fixed; what they say comes from the parse and the
 * availability tool. Stateless.
 */
public final class Replies {
    private static final Map<String, String> HEBREW_EVENTS = Map.ofEntries(
            Map.entry("wedding", "החתונה"),
            Map.entry("bar mitzvah", "בר המצווה"),
            Map.entry("bat mitzvah", "בת המצווה"),
            Map.entry("bnei mitzvah", "בני המצווה"),
            Map.entry("engagement party", "מסיבת האירוסין"),
            Map.entry("rehearsal dinner", "ארוחת החזרה"),
            Map.entry("henna", "החינה"),
            Map.entry("brit", "הברית"),
            Map.entry("baby shower", "מסיבת הלידה"),
            Map.entry("bridal shower", "מסיבת הכלה"),
            Map.entry("bachelor party", "מסיבת הרווקים"),
            Map.entry("anniversary", "יום הנישואין"),
            Map.entry("birthday", "יום ההולדת"),
            Map.entry("graduation", "טקס הסיום"),
            Map.entry("conference", "הכנס"),
            Map.entry("workshop", "הסדנה"),
            Map.entry("product launch", "ההשקה"),
            Map.entry("fundraiser", "ערב ההתרמה"),
            Map.entry("memorial", "האזכרה"),
            Map.entry("holiday party", "הרמת הכוסית"),
            Map.entry("corporate event", "אירוע החברה"),
            Map.entry("meeting", "הפגישה"),
            Map.entry("reunion", "המפגש"),
            Map.entry("reception", "קבלת הפנים"),
            Map.entry("dinner", "הארוחה"),
            Map.entry("party", "המסיבה"));

    private static final List<String> HEBREW_MONTHS = List.of(
            "בינואר",
            "בפברואר",
            "במרץ",
            "באפריל",
            "במאי",
            "ביוני",
            "ביולי",
            "באוגוסט",
            "בספטמבר",
            "באוקטובר",
            "בנובמבר",
            "בדצמבר");
    private static final List<String> HEBREW_DAYS = List.of("שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת", "ראשון");
    private static final List<String> HEBREW_MONTH_NAMES = List.of(
            "ינואר", "פברואר", "מרץ", "אפריל", "מאי", "יוני", "יולי", "אוגוסט", "ספטמבר", "אוקטובר", "נובמבר", "דצמבר");

    private Replies() {}

    /** A reply's text and the rooms it offers. */
    public record Reply(String body, List<String> offered) {}

    /** A day as a person writes it: "Saturday, 12 December 2026", "יום שבת, 12 בדצמבר 2026". */
    public static String day(LocalDate day, String language) {
        if (language.equals("he")) {
            String weekday = HEBREW_DAYS.get(day.getDayOfWeek().getValue() - 1);
            return "יום " + weekday + ", " + day.getDayOfMonth() + " " + HEBREW_MONTHS.get(day.getMonthValue() - 1)
                    + " " + day.getYear();
        }
        return day.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + ", " + day.getDayOfMonth() + " "
                + day.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + " " + day.getYear();
    }

    /** Several days: one, "A and B", or a range "12-14 December 2026". */
    static String days(List<LocalDate> days, String language) {
        if (days.size() == 1) {
            return day(days.get(0), language);
        }
        LocalDate first = days.get(0);
        LocalDate last = days.get(days.size() - 1);
        boolean consecutive = first.plusDays(days.size() - 1).equals(last);
        if (consecutive) {
            return language.equals("he")
                    ? "מ" + day(first, language) + " עד " + day(last, language)
                    : "from " + day(first, language) + " to " + day(last, language);
        }
        List<String> each = days.stream().map(d -> day(d, language)).toList();
        if (language.equals("he")) {
            return String.join(" ", each.subList(0, each.size() - 1)) + " " + prefixed("ו", each.get(each.size() - 1));
        }
        return String.join(" and ", each);
    }

    private static String greeting(Inquiry parse) {
        if (parse.language().equals("he")) {
            return parse.name().map(n -> "שלום " + n + ",").orElse("שלום,");
        }
        return parse.name().map(n -> "Hello " + n + ",").orElse("Hello,");
    }

    private static String closing(String venue, String language) {
        return language.equals("he") ? "בברכה,\n" + venue : "Kind regards,\n" + venue;
    }

    private static String event(Inquiry parse) {
        if (parse.language().equals("he")) {
            return parse.eventType()
                    .map(e -> HEBREW_EVENTS.getOrDefault(e, "האירוע"))
                    .orElse("האירוע");
        }
        return parse.eventType().map(e -> "your " + e).orElse("your event");
    }

    /**
     * The answer to an inquiry with enough to check: per option, the rooms that are free and hold
     * the guests, or that none is, with the nearest free dates.
     *
     * @param availability the output of tool {@code get_availability}
     */
    public static Reply availability(Inquiry parse, JsonNode availability, String venue) {
        String he = parse.language();
        boolean hebrew = he.equals("he");
        int guests = parse.guests().orElse(0);
        StringBuilder body = new StringBuilder(greeting(parse)).append("\n\n");
        if (hebrew) {
            body.append("תודה על פנייתך בנוגע ל")
                    .append(event(parse))
                    .append(" ל-")
                    .append(guests)
                    .append(" אורחים ")
                    .append(prefixed("ב", venue))
                    .append(".\n\n");
        } else {
            body.append("Thank you for your inquiry about ")
                    .append(event(parse))
                    .append(" for ")
                    .append(guests)
                    .append(" guests at ")
                    .append(venue)
                    .append(".\n\n");
        }
        List<String> offered = new ArrayList<>();
        Map<String, Integer> capacity = new java.util.HashMap<>();
        availability
                .path("rooms")
                .forEach(r ->
                        capacity.put(r.path("name").asText(), r.path("capacity").asInt()));
        int largest =
                capacity.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        if (largest < guests) {
            if (hebrew) {
                body.append("לצערנו החלל הגדול ביותר שלנו מכיל עד ")
                        .append(largest)
                        .append(" אורחים, ולכן לא נוכל לארח ")
                        .append(guests)
                        .append(" אורחים.\n");
            } else {
                body.append("Unfortunately our largest room holds up to ")
                        .append(largest)
                        .append(" guests, so we cannot host ")
                        .append(guests)
                        .append(" guests.\n");
            }
        } else {
            for (JsonNode option : availability.path("options")) {
                List<LocalDate> days = new ArrayList<>();
                option.path("days").forEach(d -> days.add(LocalDate.parse(d.asText())));
                List<String> free = new ArrayList<>();
                option.path("free").forEach(r -> free.add(r.asText()));
                String when = days(days, he);
                if (!free.isEmpty()) {
                    List<String> described = free.stream()
                            .map(r -> hebrew
                                    ? r + " (עד " + capacity.get(r) + " אורחים)"
                                    : "the " + r + " (up to " + capacity.get(r) + " guests)")
                            .toList();
                    String rooms = join(described, he);
                    if (hebrew) {
                        body.append("ב")
                                .append(when)
                                .append(free.size() == 1 ? " פנוי אצלנו " : " פנויים אצלנו ")
                                .append(rooms)
                                .append(".\n");
                    } else {
                        String capitalized = when.substring(0, 1).toUpperCase(Locale.ENGLISH) + when.substring(1);
                        body.append(days.size() == 1 ? "On " + when : capitalized)
                                .append(free.size() == 1 ? " we have " : " we have ")
                                .append(rooms)
                                .append(" available.\n");
                    }
                    free.stream().filter(r -> !offered.contains(r)).forEach(offered::add);
                } else {
                    if (hebrew) {
                        body.append("לצערנו ב")
                                .append(when)
                                .append(" אין אצלנו חלל פנוי ל-")
                                .append(guests)
                                .append(" אורחים.");
                    } else {
                        body.append("Unfortunately we have no room for ")
                                .append(guests)
                                .append(" guests free ")
                                .append(days.size() == 1 ? "on " + when : when)
                                .append(".");
                    }
                    List<String> nearest = new ArrayList<>();
                    for (JsonNode alternative : option.path("alternatives")) {
                        List<String> rooms = new ArrayList<>();
                        alternative.path("rooms").forEach(r -> rooms.add(r.asText()));
                        nearest.add(day(LocalDate.parse(alternative.path("date").asText()), he) + " (" + join(rooms, he)
                                + ")");
                    }
                    if (!nearest.isEmpty()) {
                        body.append(hebrew ? " המועדים הפנויים הקרובים: " : " The nearest dates we have free: ")
                                .append(join(nearest, he))
                                .append(".");
                    }
                    body.append("\n");
                }
            }
        }
        parse.budget()
                .ifPresent(b -> body.append(
                        hebrew
                                ? "\nרשמנו את התקציב שציינת (" + money(b) + ") ונתאים אליו את ההצעה.\n"
                                : "\nWe have noted your budget of " + money(b)
                                        + " and will tailor our proposal to it.\n"));
        if (!offered.isEmpty()) {
            body.append(
                    hebrew
                            ? "\nנשמח לשריין עבורך את המועד: השב/י למייל זה ונשלח הצעה מסודרת.\n"
                            : "\nWe would be happy to hold the date for you: reply to this email and we will send you a proposal.\n");
        } else {
            body.append(
                    hebrew
                            ? "\nנשמח לעזור במועד אחר: השב/י למייל זה עם תאריך נוסף.\n"
                            : "\nWe would be glad to help on another date: reply to this email with one that suits you.\n");
        }
        body.append("\n").append(closing(venue, he));
        return new Reply(body.toString(), offered);
    }

    /** A clarifying question for what an inquiry lacks (the date, the number of guests). */
    public static Reply clarify(Inquiry parse, String venue) {
        boolean hebrew = parse.language().equals("he");
        List<String> missing = parse.missing();
        StringBuilder body = new StringBuilder(greeting(parse)).append("\n\n");
        if (hebrew) {
            body.append("תודה שפנית ")
                    .append(prefixed("ל", venue))
                    .append(". נשמח לעזור ב")
                    .append(parse.eventType().isPresent() ? "ארגון " + event(parse) : "ארגון האירוע")
                    .append(".\n");
            body.append("כדי שנוכל לבדוק זמינות, נשמח לדעת:\n");
            if (missing.contains("date")) {
                if (!parse.past().isEmpty()) {
                    body.append("- התאריך שציינת (")
                            .append(day(parse.past().get(0), "he"))
                            .append(") כבר עבר. באיזה תאריך יתקיים האירוע?\n");
                } else {
                    body.append(parse.period()
                            .map(p -> "- באיזה תאריך ב" + HEBREW_MONTH_NAMES.get(p.getMonthValue() - 1)
                                    + " יתקיים האירוע?\n")
                            .orElse("- באיזה תאריך יתקיים האירוע?\n"));
                }
            }
            if (missing.contains("guests")) {
                body.append("- כמה אורחים אתם מצפים?\n");
            }
        } else {
            body.append("Thank you for contacting ")
                    .append(venue)
                    .append(". We would be glad to help with ")
                    .append(event(parse))
                    .append(".\n");
            body.append("To check availability for you, could you tell us:\n");
            if (missing.contains("date")) {
                if (!parse.past().isEmpty()) {
                    body.append("- The date you mentioned (")
                            .append(day(parse.past().get(0), "en"))
                            .append(") has already passed. What date is the event?\n");
                } else {
                    body.append(parse.period()
                            .map(p -> "- Which date in " + p.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH)
                                    + " " + p.getYear() + " would you like?\n")
                            .orElse("- What date is the event?\n"));
                }
            }
            if (missing.contains("guests")) {
                body.append("- How many guests are you expecting?\n");
            }
        }
        body.append("\n").append(closing(venue, parse.language()));
        return new Reply(body.toString(), List.of());
    }

    /** The rooms and what each holds, for a question about them. */
    public static Reply rooms(Inquiry parse, JsonNode rooms, String venue) {
        boolean hebrew = parse.language().equals("he");
        StringBuilder body = new StringBuilder(greeting(parse)).append("\n\n");
        body.append(
                hebrew ? "תודה על פנייתך. אלה החללים שלנו:\n" : "Thank you for your message. These are our rooms:\n");
        for (JsonNode room : rooms) {
            body.append("- ")
                    .append(room.path("name").asText())
                    .append(hebrew ? ": עד " : ": up to ")
                    .append(room.path("capacity").asInt())
                    .append(hebrew ? " אורחים\n" : " guests\n");
        }
        body.append(
                hebrew
                        ? "\nכדי שנבדוק זמינות, נשמח לדעת את התאריך ואת מספר האורחים.\n"
                        : "\nTell us your date and the number of guests and we will check availability for you.\n");
        body.append("\n").append(closing(venue, parse.language()));
        return new Reply(body.toString(), List.of());
    }

    /** "Re: " before a subject that does not have it. */
    public static String subject(String original, String language) {
        String s = original.strip();
        if (s.isEmpty()) {
            return language.equals("he") ? "Re: פנייתך" : "Re: your inquiry";
        }
        return s.matches("(?i)^(re|השב)\\s*:.*") ? s : "Re: " + s;
    }

    private static String join(List<String> items, String language) {
        if (items.size() == 1) {
            return items.get(0);
        }
        String last = items.get(items.size() - 1);
        String head = String.join(", ", items.subList(0, items.size() - 1));
        return language.equals("he") ? head + " " + prefixed("ו", last) : head + " and " + last;
    }

    /** A Hebrew one-letter prefix (ב, ל, ו) on a word: joined to a Hebrew word, with a hyphen to any other. */
    static String prefixed(String prefix, String word) {
        char first = word.isEmpty() ? ' ' : word.charAt(0);
        return first >= '\u05d0' && first <= '\u05ea' ? prefix + word : prefix + "-" + word;
    }

    private static String money(Inquiry.Budget budget) {
        String amount = String.format(Locale.ENGLISH, "%,d", budget.amount());
        return switch (budget.currency()) {
            case "USD" -> "$" + amount;
            case "EUR" -> "€" + amount;
            case "GBP" -> "£" + amount;
            default -> "₪" + amount;
        };
    }
}
