package dev.weft.memo.internal.planning;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.memo.internal.understanding.Intent;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How Memo reads a request to its second brain: a thought, an opinion or a fact to keep (without the
 * words that introduce it: "I have a feeling that…", "remember that…"); a question about what was
 * kept, whatever its form ("what did I say about the launch?", "what does my brother like to eat?");
 * a summary; a correction or a deletion.
 */
public final class MemoryRequests {
    private static final int FLAGS = Words.FLAGS;

    static final Pattern FORGET = Pattern.compile(
            "^(?:please\\s+)?(?:you can\\s+)?(?:forget|(?:delete|remove|erase) (?:the |my )?(?:memory|memories|thought|idea|note|what i (?:said|told you))\\b)"
                    + "|^(?:תשכח|תשכחי|שכח|שכחי)(?:\\s|$)|^(?:תמחק|תמחקי|מחק|מחקי) (?:את )?(?:מה שאמרתי|הזיכרון|המחשבה|הרעיון)",
            FLAGS);
    static final Pattern UPDATE = Pattern.compile(
            "^(?:please\\s+)?(?:update|change|correct) (?:what i (?:said|told you)|my (?:memory|thought|idea|note))"
                    + " (?:about|on) (?<what>.+?)(?:\\s+to\\s+|:\\s*)(?<to>.+)$"
                    + "|^(?:תעדכן|תעדכני|עדכן|עדכני|תשנה|תשני) (?:את )?(?:מה שאמרתי|הזיכרון|המחשבה|הרעיון) (?:על|לגבי) (?<mah>.+?)(?:\\s+ל-?|:\\s*)(?<le>.+)$",
            FLAGS);
    /** Words that ask Memo to keep what follows, whatever it says ("idea: a weekly demo day", "remember that…"). */
    static final Pattern KEEP = Pattern.compile(
            "^(?:idea|thought|רעיון|מחשבה)\\s*:|^(?:please\\s+)?(?:remember|note|keep in mind) that\\b"
                    + "|^(?:תשמור|תשמרי|שמור|תזכור|תזכרי|תרשום לך|שים לב|שימי לב)\\s+ש",
            FLAGS);

    static final Pattern SUMMARY = Pattern.compile(
            "^(?:please\\s+)?(?:summari[sz]e|sum up|give me a summary of) (?:what i (?:said|told you|wrote)|my (?:memories|thoughts|ideas|notes))"
                    + "|^(?:תסכם|תסכמי|סכם|סכמי) (?:לי )?(?:את )?(?:מה שאמרתי|מה שסיפרתי|הזיכרונות|המחשבות|הרעיונות|מה שאני יודע)",
            FLAGS);
    /** The words that ask Memo to keep what follows ("remember that…"); an opinion's own words stay in it. */
    private static final Pattern THOUGHT_LEAD = Pattern.compile(
            "^(?:(?:just so you know|for the record|fyi|(?:please\\s+)?(?:remember|note|keep in mind|don'?t forget|write down"
                    + "|store the thought|store the idea|store|save|keep)(?:\\s+(?:the thought|the idea|this))?)(?:\\s+that)?\\b\\s*[:,]?\\s*"
                    + "|idea:\\s*|thought:\\s*|(?:quick thought|an idea) (?:about|for) [^:]+:\\s*)"
                    + "|^(?:לידיעתך|רק שתדע|תזכור|תזכרי|לזכור|שים לב|שימי לב|תשמור|תשמרי|שמור|שמרי|תרשום לך|תרשום לעצמך|תרשמי לעצמך"
                    + "|רשום לעצמך|אל תשכח|רעיון(?: ל[^:]+)?:|מחשבה:)"
                    + "(?:\\s+(?:לי|לך))?\\s*(?:ש)?\\s*,?\\s*",
            FLAGS);

    private static final Pattern TRAILING_KEEP = Pattern.compile(
            "\\s*,?\\s*(?:remember that|remember it|keep that in mind|תזכור את זה|תזכרי את זה)\\s*[.!]*$", FLAGS);

    private MemoryRequests() {}

    static Reading read(Intent intent, Request r) {
        ObjectNode c = Json.object();
        String text = r.text();
        switch (intent) {
            case MEMORY_FORGET -> {
                Matcher update = UPDATE.matcher(text);
                if (update.find()) {
                    c.put("query", Words.trim(Words.either(update, "what", "mah")));
                    c.put("content", Words.trim(Words.either(update, "to", "le")));
                    return Reading.of("second-brain", "update_memory", c);
                }
                if (!DELETES.matcher(text).find()) {
                    // "actually my locker code is 5678 now", "update the door code to 4455", "תיקון: …":
                    // a correction of what Memo keeps, never a deletion of it.
                    return correction(text);
                }
                c.put(
                        "query",
                        query(FORGET.matcher(text)
                                .replaceFirst("")
                                .replaceFirst("(?iU)^\\s*(?:that\\s+|about\\s+|ש)", "")));
                return Reading.of("second-brain", "delete_memory", c);
            }
            case MEMORY_STORE -> {
                c.put("content", thought(text));
                return Reading.of("second-brain", "store_thought", c);
            }
            default -> {
                String about = query(text);
                boolean named = !about.equals(Words.trim(text.replaceAll("[?]+$", "")));
                if (SUMMARY.matcher(text).find()) {
                    if (named) {
                        c.put("query", about);
                    }
                    return Reading.of("second-brain", "summarize_project", c);
                }
                // "what did I say about?" names nothing: the resolver gives the latest memories. A
                // question of another form ("what's my locker code?") is searched by its own words.
                c.put("query", named ? about : Words.trim(text.replaceAll("[?]+$", "")));
                if (named && about.isEmpty()) {
                    c.remove("query");
                }
                return Reading.of("second-brain", "search_memory", c);
            }
        }
    }

    /** Words that delete: without one, a request the classifier finds close to "forget" corrects. */
    private static final Pattern DELETES = Pattern.compile(
            "\\b(?:forget|delete|remove|erase|drop|scrap|wipe|clear)\\b"
                    + "|(?:^|\\s)(?:תשכח|תשכחי|שכח|שכחי|תמחק|תמחקי|מחק|מחקי|תסיר|תסירי|הסר|תוריד|תורידי)(?=\\s|$)",
            FLAGS);

    /** How a correction begins or ends: "actually", "correction:", "update that", "בעצם", "תיקון:", "תעדכן". */
    private static final Pattern CORRECTION_LEAD = Pattern.compile(
            "^(?:actually|fyi|just so you know|heads up|oops|sorry)\\s*[:,-]?\\s*"
                    + "|^(?:correction|update|note|small correction)\\s*[:,-]\\s*"
                    + "|^(?:בעצם|לידיעתך|רק שתדע|טעות שלי|סליחה)\\s*[:,-]?\\s*|^(?:תיקון|עדכון)\\s*[:,-]\\s*",
            FLAGS);

    private static final Pattern CORRECTION_TAIL = Pattern.compile(
            "\\s*[,.;-]?\\s*(?:(?:please\\s+)?(?:update|change|correct|fix) (?:that|it|this)(?:\\s+please)?"
                    + "|(?:תעדכן|תעדכני|עדכן|עדכני|תתקן|תתקני)(?:\\s+את\\s+זה)?(?:\\s+בבקשה)?)\\s*[.!]*$",
            FLAGS);

    /** "update the door code to 4455", "set my parking spot to B12", "תעדכן את הקוד של הדלת ל-1290". */
    private static final Pattern SET_TO = Pattern.compile(
            "^(?:please\\s+)?(?:update|change|set|correct|make)\\s+(?<what>.+?)\\s+to\\s+(?<to>\\S.*)$"
                    + "|^(?:בבקשה\\s+)?(?:תעדכן|תעדכני|עדכן|עדכני|תשנה|תשני|שנה|שני)\\s+(?:את\\s+)?(?<mah>.+?)\\s+ל-?(?<le>\\S.*)$",
            FLAGS);

    /** The subject of a corrected fact: the words before "is now", "changed to", "היא עכשיו", "השתנה ל". */
    private static final Pattern SUBJECT = Pattern.compile(
            "^(?<what>.+?)\\s+(?:is now|are now|is actually|are actually|has changed to|have changed to|changed to|moved to"
                    + "|now (?:opens|closes|starts|costs|lives|works)|(?:raised|lowered|changed) (?:his|her|their|its|the) \\w+ to"
                    + "|is|are|was|were)\\s"
                    + "|^(?<mah>.+?)\\s+(?:היא עכשיו|הוא עכשיו|הם עכשיו|הן עכשיו|השתנה ל|השתנתה ל|השתנו ל|עבר ל|עברה ל|עברו ל"
                    + "|העלה את|העלתה את|הוריד את|הורידה את|היא|הוא|הם|הן|זה)\\s",
            FLAGS);

    /** A correction of a kept fact: which memory (its words) and what it says now. */
    private static Reading correction(String text) {
        String said = CORRECTION_TAIL
                .matcher(CORRECTION_LEAD.matcher(text.strip()).replaceFirst(""))
                .replaceFirst("")
                .strip();
        ObjectNode c = Json.object();
        Matcher set = SET_TO.matcher(said);
        if (set.matches()) {
            String what = Words.trim(Words.either(set, "what", "mah"));
            c.put("query", what);
            c.put("content", what + ": " + Words.trim(Words.either(set, "to", "le")));
            return Reading.of("second-brain", "update_memory", c);
        }
        Matcher subject = SUBJECT.matcher(said);
        c.put("query", subject.find() ? Words.trim(Words.either(subject, "what", "mah")) : said);
        c.put("content", said);
        return Reading.of("second-brain", "update_memory", c);
    }

    /** What a question about memories is about: the words after "about", "on", "על". */
    static String query(String text) {
        String about = text.replaceAll("[?]+\\s*$", "")
                .replaceAll(
                        "(?iU)^.*?\\b(?:about|regarding|on|of)(?:\\s+|\\s*$)|^.*?\\b(?:search|look)\\b.*?\\bfor\\s+"
                                + "|^.*?(?:על|בנושא|לגבי)(?:\\s+|\\s*$)",
                        "");
        return Words.trim(about);
    }

    /** A thought as it is kept: without the words that introduce it. */
    static String thought(String text) {
        String kept = THOUGHT_LEAD.matcher(text).replaceFirst("");
        // "תשמור לי רעיון: …": a lead after a lead.
        kept = THOUGHT_LEAD.matcher(kept).replaceFirst("");
        kept = TRAILING_KEEP.matcher(kept).replaceFirst("");
        kept = Words.trim(kept);
        return kept.isEmpty() ? Words.trim(text) : kept;
    }
}
