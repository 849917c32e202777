package dev.weft.memo.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What Memo says of the second brain, in the user's language: what it kept, changed or forgot, and
 * answers from the memories found, each cited with the day it was said. Templates, no model. Stateless.
 */
public final class MemoryReplies {
    private static final DateTimeFormatter EN_DAY = DateTimeFormatter.ofPattern("d MMM", Locale.ENGLISH);
    private static final DateTimeFormatter EN_DAY_YEAR = DateTimeFormatter.ofPattern("d MMM yyyy", Locale.ENGLISH);
    private static final DateTimeFormatter HE_DAY = DateTimeFormatter.ofPattern("d.M");
    private static final DateTimeFormatter HE_DAY_YEAR = DateTimeFormatter.ofPattern("d.M.yyyy");

    private MemoryReplies() {}

    static String done(String language, String action, JsonNode result, ZoneId zone, Instant now) {
        return switch (action) {
            case "store_thought" ->
                Texts.of(language, "Got it, I'll remember: \"", "שמרתי: \"")
                        + result.path("memory").path("content").asText() + "\""
                        + tagged(language, result.path("memory"))
                        + ".";
            case "update_memory" ->
                Texts.of(language, "Updated what I keep: \"", "עדכנתי: \"")
                        + result.path("memory").path("content").asText() + "\".";
            case "delete_memory" ->
                Texts.of(language, "Forgotten: \"", "שכחתי: \"")
                        + result.path("deleted").path(0).path("content").asText() + "\".";
            default -> answer(language, result, now, zone);
        };
    }

    private static String tagged(String language, JsonNode memory) {
        List<String> tags = new ArrayList<>();
        memory.path("tags").forEach(t -> tags.add("#" + t.asText()));
        return tags.isEmpty() ? "" : Texts.of(language, " (", " (") + String.join(" ", tags) + ")";
    }

    /**
     * The answer from a search's or a summary's result: the memories found, numbered and dated, or a
     * summary over them, or plainly that nothing was found.
     */
    public static String answer(String language, JsonNode result, Instant now, ZoneId zone) {
        // A search or a summary gives "memories"; the latest ones, when nothing was named, "latest".
        JsonNode memories = result.has("latest") ? result.path("latest") : result.path("memories");
        String about = result.path("query").asText(result.path("projectId").asText(""));
        if (memories.isEmpty()) {
            return about.isEmpty()
                    ? Texts.of(language, "You haven't told me anything like that yet.", "עוד לא סיפרת לי על זה כלום.")
                    : Texts.of(
                            language,
                            "You haven't told me anything about \"" + about + "\" yet.",
                            "עוד לא סיפרת לי כלום על \"" + about + "\".");
        }
        List<String> lines = new ArrayList<>();
        if (result.has("summary")) {
            int count = result.path("count").asInt(memories.size());
            lines.add(Texts.of(
                    language,
                    "In short, from " + count + (count == 1 ? " thing" : " things") + " you told me"
                            + (about.isEmpty() ? "" : " about \"" + about + "\"") + ":",
                    "בקצרה, מתוך " + count + " דברים שסיפרת לי" + (about.isEmpty() ? "" : " על \"" + about + "\"")
                            + ":"));
            lines.add(result.path("summary").asText());
            return String.join("\n", lines);
        }
        lines.add(Texts.of(
                language,
                "Here's what you told me" + (about.isEmpty() ? "" : " about \"" + about + "\"") + ":",
                "זה מה שסיפרת לי" + (about.isEmpty() ? "" : " על \"" + about + "\"") + ":"));
        int i = 1;
        for (JsonNode memory : memories) {
            lines.add(i++ + ". \"" + memory.path("content").asText() + "\" (" + day(language, memory, now, zone) + ")");
        }
        return String.join("\n", lines);
    }

    /** The day a memory was said, with its year when that is not this year. */
    static String day(String language, JsonNode memory, Instant now, ZoneId zone) {
        try {
            LocalDate said = Instant.parse(memory.path("createdAt").asText())
                    .atZone(zone)
                    .toLocalDate();
            boolean thisYear = said.getYear() == now.atZone(zone).getYear();
            DateTimeFormatter format =
                    language.equals("he") ? (thisYear ? HE_DAY : HE_DAY_YEAR) : (thisYear ? EN_DAY : EN_DAY_YEAR);
            return said.format(format);
        } catch (DateTimeParseException e) {
            return "?";
        }
    }
}
