package dev.weft.language;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a request asks an assistant to do, in English and Hebrew, for the safety of whatever it plans:
 * whether it only asks to read, confirm or be told ("what reminders do I have", "confirm my alarm
 * settings", "ספר לי על התזכורות שלי"), whether its words ask for a given kind of {@link Change} (a
 * delete needs a word that deletes), and whether it asks for an act an assistant does not do ("pay the
 * electricity bill with my Visa"). Rules over words as data ({@code acts.tsv}: cue families, each cue
 * placed where it must stand), never a classifier: a classifier that mistakes a question for a change
 * must not be the one to check itself. Stateless and thread-safe.
 */
public final class RequestActs {
    /** A change a request may ask for, each with its own words. */
    public enum Change {
        /** Deletes, cancels, turns off or stops something that is there. */
        DELETE,
        /** Changes something that is there: its time, name, state or order. */
        UPDATE,
        /** Sends something in the user's name. */
        SEND
    }

    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
    private static final String HEBREW_LETTERS = ".*[\\u05D0-\\u05EA].*";

    /** A Hebrew word's start: no letter before it but its one-letter prefixes. */
    private static final String HEBREW_START = "(?<![\\p{L}])(?:ו|ש|כש|וש)?";

    private static final String HEBREW_END = "(?![\\p{L}])";

    private static final Pattern READ;
    private static final Pattern ASKS_FOR;
    private static final Pattern COMMAND;
    private static final Map<Change, Pattern> CHANGES = new EnumMap<>(Change.class);
    private static final Map<String, Pattern> OUT_OF_SCOPE = new LinkedHashMap<>();

    static {
        Map<String, Map<String, List<String>>> families = new LinkedHashMap<>();
        for (String[] row : Data.rows("acts.tsv")) {
            if (row.length != 3) {
                throw new IllegalStateException(
                        "acts.tsv: a row is 'family<TAB>where<TAB>cue', was " + String.join("|", row));
            }
            families.computeIfAbsent(row[0], f -> new LinkedHashMap<>())
                    .computeIfAbsent(row[1], w -> new ArrayList<>())
                    .add(plainLetters(row[2]));
        }
        String fillers = alternatives(cues(families, "filler", "filler"));
        String leads = alternatives(cues(families, "lead", "lead"));
        String opening = "^(?:(?:" + fillers + ")[\\s,]+)*";
        String lead = "(?:^|[.?!;,:\\n]\\s*|(?<![\\p{L}\\p{N}])(?:" + leads + ")\\s+)";
        READ = compile(families, "read", opening, lead);
        ASKS_FOR = compile(families, "asks-for", opening, lead);
        COMMAND = compile(families, "change", opening, lead);
        for (Change change : Change.values()) {
            CHANGES.put(change, compile(families, change.name().toLowerCase(Locale.ROOT), opening, lead));
        }
        for (String family : families.keySet()) {
            if (family.startsWith("out:")) {
                OUT_OF_SCOPE.put(family.substring("out:".length()), compile(families, family, opening, lead));
            }
        }
    }

    private RequestActs() {}

    /**
     * Whether {@code text} only asks to read, confirm or be told: it opens as a question or a request to
     * be told, shown or reassured (or ends with a question mark), and neither asks for something to be
     * had ("can I get an alarm at 6?", "אפשר שעון מעורר בעוד עשרים דקות?") nor commands a change
     * ("what's on tomorrow? and move the dentist to 5"). Whatever is planned for it may change nothing.
     */
    public static boolean asksOnlyToRead(String text) {
        String said = said(text);
        boolean reads = READ.matcher(said).find() || said.endsWith("?") || said.endsWith("？");
        return reads && !ASKS_FOR.matcher(said).find() && !COMMAND.matcher(said).find();
    }

    /** Whether {@code text} commands a change of any kind ("add…", "move…", "תמחק…", "and then send…"). */
    public static boolean commandsAChange(String text) {
        return COMMAND.matcher(said(text)).find();
    }

    /**
     * Whether the words of {@code text} ask for {@code change}: a delete needs a word that deletes or
     * turns off, an update one that moves, renames, marks or corrects, a send one that sends or answers.
     */
    public static boolean asksFor(Change change, String text) {
        return CHANGES.get(change).matcher(said(text)).find();
    }

    /**
     * The first of {@code topics} (families {@code out:<topic>} of {@code acts.tsv}: {@code payments},
     * {@code transport}) that {@code text} commands, or empty. An assistant names the topics it does not
     * do; "remind me to pay the bill" is a reminder, not a payment.
     *
     * @throws IllegalArgumentException for a topic with no words
     */
    public static Optional<String> outsideScope(String text, Set<String> topics) {
        String said = said(text);
        for (String topic : topics) {
            if (!OUT_OF_SCOPE.containsKey(topic)) {
                throw new IllegalArgumentException(
                        "no words for the topic '" + topic + "', known: " + OUT_OF_SCOPE.keySet());
            }
        }
        for (Map.Entry<String, Pattern> entry : OUT_OF_SCOPE.entrySet()) {
            if (topics.contains(entry.getKey())
                    && entry.getValue().matcher(said).find()) {
                // "play some music and add coffee to the shopping list": the second clause is a request
                // of its own, which the refusal of the first must not take with it.
                return commandsAfterItsStart(said) ? Optional.empty() : Optional.of(entry.getKey());
            }
        }
        return Optional.empty();
    }

    private static boolean commandsAfterItsStart(String said) {
        java.util.regex.Matcher command = COMMAND.matcher(said);
        while (command.find()) {
            if (command.start() > 0 && !said.substring(0, command.start()).isBlank()) {
                return true;
            }
        }
        return false;
    }

    /** The topics {@code acts.tsv} has words for. */
    public static Set<String> topics() {
        return Set.copyOf(OUT_OF_SCOPE.keySet());
    }

    /** {@code text} as the cues read it: slips corrected, lower case, Hebrew final letters as inner ones. */
    private static String said(String text) {
        return plainLetters(Typos.corrected((CharSequence) text.strip()).toLowerCase(Locale.ROOT));
    }

    /**
     * Hebrew final letters as inner ones, in a text and in a cue alike: a cue matches a word's start
     * whatever follows ("לא צריך" in "לא צריכה", "תזמין" as written "תזמינ").
     */
    private static String plainLetters(String text) {
        StringBuilder plain = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            plain.append(Folding.plainLetter(text.charAt(i)));
        }
        return plain.toString();
    }

    private static List<String> cues(Map<String, Map<String, List<String>>> families, String family, String where) {
        List<String> cues = families.getOrDefault(family, Map.of()).get(where);
        if (cues == null) {
            throw new IllegalStateException("acts.tsv has no '" + where + "' cues of family " + family);
        }
        return cues;
    }

    private static String alternatives(List<String> cues) {
        return String.join("|", cues.stream().map(c -> "(?:" + c + ")").toList());
    }

    /** One pattern for a family: each cue in the shape of where it stands and of its script. */
    private static Pattern compile(
            Map<String, Map<String, List<String>>> families, String family, String opening, String lead) {
        Map<String, List<String>> byPlace = families.get(family);
        if (byPlace == null) {
            throw new IllegalStateException("acts.tsv has no cues of family " + family);
        }
        List<String> shapes = new ArrayList<>();
        for (Map.Entry<String, List<String>> place : byPlace.entrySet()) {
            List<String> hebrew = place.getValue().stream()
                    .filter(c -> c.matches(HEBREW_LETTERS))
                    .toList();
            List<String> english = place.getValue().stream()
                    .filter(c -> !c.matches(HEBREW_LETTERS))
                    .toList();
            switch (place.getKey()) {
                case "opens" -> {
                    add(shapes, english, opening + "(?:", ")(?!\\w)");
                    add(shapes, hebrew, opening + "(?:", ")" + HEBREW_END);
                }
                case "commands" -> {
                    add(shapes, english, lead + "(?:", ")\\b");
                    add(shapes, hebrew, "(?<![\\p{L}])ו?(?:", ")" + HEBREW_END);
                }
                // A Hebrew word takes its endings too: מחק, מחקי, תמחקו.
                case "says" -> {
                    add(shapes, english, "\\b(?:", ")\\b");
                    add(shapes, hebrew, HEBREW_START + "(?:", ")");
                }
                default ->
                    throw new IllegalStateException("acts.tsv: family " + family + " has cues placed '" + place.getKey()
                            + "'; a cue opens, commands or says");
            }
        }
        return Pattern.compile(String.join("|", shapes), FLAGS);
    }

    private static void add(List<String> shapes, List<String> cues, String before, String after) {
        if (!cues.isEmpty()) {
            shapes.add(before + alternatives(cues) + after);
        }
    }
}
