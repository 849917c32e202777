package dev.weft.memo.internal.planning;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.plan.PlanStep;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a message splits into requests: independent ones ("and also", "וגם", a comma or "and" before
 * a new request) become parallel steps, a part after "then" ("ואז", "אחר כך") depends on the part
 * before it; a part that only says what to do with the one before it ("…, put it in my calendar",
 * "…, tick it off") is read together with it; and a dependent part that refers to what the step
 * before it made or found ("…then add balloons to it") acts on that.
 */
public final class Parts {
    private static final int FLAGS = Words.FLAGS;

    private static final String EN_VERBS = "remind|add|create|make|delete|remove|show|list|send|schedule|set|mark|"
            + "complete|cancel|tell|what|check|put|move|update|change|book|tick|start|email|let|reply|forward";
    /** A question after "and": "what's on tomorrow, and do I have new emails?". */
    private static final String EN_QUESTIONS = "do i|did i|is there|are there|what|what's|whats|when|who";

    private static final String HE_VERBS =
            "תזכיר|תזכירי|הזכר|תוסיף|תוסיפי|הוסף|הוסיפי|צור|תצור|תיצור|צרי|מחק|תמחק|תמחקי|"
                    + "הראה|תראה|תראי|תשלח|שלח|תשלחי|קבע|תקבע|תקבעי|סמן|תסמן|תסמני|בטל|תבטל|תבטלי|עדכן|תעדכן|"
                    + "מה|תרשום|רשום|תכתוב|תזיז|תזיזי|תעביר|תעבירי|תכניס|תכניסי|תפתח|תפתחי|תכוון|תכווני|תדחה|תשים|תשימי|"
                    + "תעדכני|יש";

    private static final Pattern EN_SPLIT = Pattern.compile(
            "\\s*(?:,\\s*)?\\b(?<then>and then|then|after that|afterwards)\\b\\s*"
                    + "|\\s*(?:,\\s*)?\\b(?:and also|also)\\b\\s*"
                    + "|\\s*;\\s*"
                    + "|\\s*,\\s*(?=(?:" + EN_VERBS + ")\\b)"
                    + "|\\s+and\\s+(?:um\\s+|uh\\s+|also\\s+)?(?=(?:" + EN_VERBS + ")\\b)"
                    + "|\\s*,?\\s+and\\s+(?=(?:" + EN_QUESTIONS + ")\\b)",
            FLAGS);
    private static final Pattern HE_SPLIT = Pattern.compile(
            "\\s*,?\\s*(?<then>ואז|ואחר כך|אחר כך|ולאחר מכן|לאחר מכן)\\s+"
                    + "|\\s*,?\\s*וגם\\s+"
                    + "|\\s*;\\s*"
                    + "|\\s*,\\s*(?=(?:" + HE_VERBS + ")(?:\\s|$))"
                    + "|\\s+ו(?:אממ?\\s+|אה\\s+)?(?=(?:" + HE_VERBS + ")(?:\\s|$))"
                    + "|\\s+ואממ?\\s+(?=\\S)",
            FLAGS);
    /** A part that says only what to do with the part before it. */
    private static final Pattern ANAPHOR = Pattern.compile(
            "^(?:and\\s+)?(?:please\\s+)?(?:put|add|save|write|mark|schedule|book|note|log|keep|set|tick|check|cross|remind me about)"
                    + "\\s+(?:it|this|that|them)\\b(?:\\s+(?:in|on|to|into|off|down|as)\\b.*)?[.!]*$"
                    + "|^(?:and\\s+|so\\s+)?(?:please\\s+)?(?:take|get|remove|cancel|delete|drop|scrap|clear)\\s+(?:it|this|that)"
                    + "(?:\\s+(?:off|from|out of))?(?:\\s+(?:my|the)\\s+(?:calendar|schedule|diary))?[.!]*$"
                    + "|^(?:ו)?(?:תכניס|תכניסי|תוסיף|תוסיפי|תרשום|תרשמי|תשמור|תסמן|תסמני|תקבע|תשים|תשימי|שים)(?:\\s+את\\s+(?:זה|זאת|הכל))?"
                    + "(?:\\s+(?:ל|ב)(?:ה)?(?:יומן|רשימה|לו\"ז|משימות))?(?:\\s+(?:שזה\\s+)?(?:בוצע|נעשה))?\\s*[.!]*$"
                    + "|^(?:ו|אז\\s+)?(?:תוריד|תורידי|תמחק|תמחקי|תבטל|תבטלי|מחק|בטל)(?:\\s+(?:את\\s+)?(?:זה|אותה|אותו))?"
                    + "(?:\\s+(?:מה|מ)(?:ה)?(?:יומן|לו\"ז))?\\s*[.!]*$",
            FLAGS);

    /** One request of a message, and whether it depends on the one before it. */
    public record Part(String text, boolean dependsOnPrevious) {}

    private Parts() {}

    public static List<Part> split(String message, String language) {
        Pattern split = language.equals("he") ? HE_SPLIT : EN_SPLIT;
        List<Part> parts = new ArrayList<>();
        Matcher m = split.matcher(message);
        int at = 0;
        boolean dependent = false;
        while (m.find()) {
            add(parts, message.substring(at, m.start()).trim(), dependent);
            dependent = m.group("then") != null;
            at = m.end();
        }
        add(parts, message.substring(at).trim(), dependent);
        return parts;
    }

    private static void add(List<Part> parts, String text, boolean dependent) {
        if (text.isEmpty()) {
            return;
        }
        if (!dependent && !parts.isEmpty() && ANAPHOR.matcher(text).matches()) {
            Part before = parts.remove(parts.size() - 1);
            parts.add(new Part(before.text() + ", " + text, before.dependsOnPrevious()));
            return;
        }
        parts.add(new Part(text, dependent && !parts.isEmpty()));
    }

    private static final Pattern EACH = Pattern.compile(
            "\\b(?:each|every one|every email|all of them)\\b|לכל אחד|על כל אחד|לכל מייל|על כל מייל|לכל אחת|על כל אחת",
            FLAGS);
    private static final Pattern PRONOUN = Pattern.compile(
            "^(?:it|them|that|this|that one|this one|אותה|אותו|אותם|אותן|אות[הו] ל?)$|^(?:it|them)\\s+(?:to|on)\\b.*",
            FLAGS);
    private static final Pattern TO_IT = Pattern.compile(
            "\\s+(?:to|on|in)\\s+(?:it|them|that list|the list)\\s*$|\\s+(?:לה|לו|אליה|אליו|לרשימה)(?=\\s|$)", FLAGS);

    /**
     * A part that refers to the one before it ("…then add balloons to it", "…then move it to 5pm"):
     * it acts on what that step made or found.
     */
    public static PlanStep referring(PlanStep step, String text, PlanStep before, String language) {
        JsonNode earlier = before.constraints();
        boolean listBefore =
                before.capability().equals("database") && before.action().matches(".*_list|add_item");
        if (listBefore
                && (ListRequests.ADD.matcher(text).find() || step.action().equals("add_item"))) {
            ObjectNode c = Json.object();
            String list = earlier.path("listName").asText("");
            if (!list.isEmpty()) {
                c.put("listName", list);
            }
            ArrayNode items = c.putArray("items");
            String said = TO_IT.matcher(text).replaceAll("");
            said = said.replaceFirst(
                    "(?iU)^(?:please\\s+)?(?:add|put)\\s+|^(?:בבקשה\\s+)?(?:תוסיף|תוסיפי|הוסף|הוסיפי|תכניס|תרשום|רשום)(?:\\s+את)?\\s+",
                    "");
            Words.items(said, language).forEach(items::add);
            return new PlanStep(step.id(), "database", "add_item", c, step.changes(), step.dependsOn());
        }
        if (before.capability().equals("gmail")
                && before.action().equals("search_emails")
                && step.action().equals("create_task")
                && EACH.matcher(text).find()) {
            // "…then make a task about each": one task per email found ([*] over the search's result).
            ObjectNode c = step.constraints().deepCopy();
            c.put(
                    "text",
                    (language.equals("he") ? "לטפל במייל: $" : "Follow up: $") + before.id() + ".emails[*].subject");
            return new PlanStep(step.id(), step.capability(), step.action(), c, step.changes(), step.dependsOn());
        }
        String field = step.capability().equals("calendar") ? "summary" : "query";
        String said = step.constraints().path(field).asText(null);
        if (said != null && PRONOUN.matcher(said.trim()).matches()) {
            String named = earlier.path("summary")
                    .asText(earlier.path("query").asText(earlier.path("text").asText("")));
            if (!named.isEmpty()) {
                ObjectNode c = step.constraints().deepCopy();
                c.put(field, named);
                return new PlanStep(step.id(), step.capability(), step.action(), c, step.changes(), step.dependsOn());
            }
        }
        return step;
    }
}
