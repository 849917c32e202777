package dev.weft.memo.internal.understanding;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.time.Language;
import dev.weft.time.TimeParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.TreeMap;

/** Prints how the classifier labels a corpus of planned messages (a development aid, not a test). */
final class IntentProbe {
    static Intent of(String capability, String action) {
        return switch (capability + "/" + action) {
            case "calendar/list_events", "calendar/find_event", "calendar/check_conflicts", "calendar/get_recurring" ->
                Intent.CALENDAR_QUERY;
            case "calendar/create_event", "calendar/create_recurring" -> Intent.CALENDAR_CREATE;
            case "calendar/update_event", "calendar/end_recurring" -> Intent.CALENDAR_UPDATE;
            case "calendar/delete_event", "calendar/delete_events" -> Intent.CALENDAR_DELETE;
            case "database/create_task", "database/create_tasks" -> Intent.TASK_CREATE;
            case "database/find_task" -> Intent.TASK_QUERY;
            case "database/update_task" -> Intent.TASK_UPDATE;
            case "database/delete_task", "database/delete_tasks" -> Intent.TASK_DELETE;
            case "database/complete_task", "database/complete_tasks" -> Intent.TASK_COMPLETE;
            case "database/create_list" -> Intent.LIST_CREATE;
            case "database/add_item" -> Intent.LIST_ADD;
            case "database/find_list" -> Intent.LIST_QUERY;
            case "database/delete_item" -> Intent.LIST_REMOVE_ITEM;
            case "database/delete_list" -> Intent.LIST_DELETE;
            case "database/toggle_item" -> Intent.LIST_CHECK;
            case "gmail/send_email", "gmail/compose_email" -> Intent.EMAIL_SEND;
            case "gmail/search_emails" -> Intent.EMAIL_QUERY;
            case "gmail/read_email" -> Intent.EMAIL_READ;
            case "gmail/reply_email" -> Intent.EMAIL_REPLY;
            case "gmail/forward_email" -> Intent.EMAIL_FORWARD;
            case "gmail/delete_email", "gmail/archive_email", "gmail/mark_read", "gmail/star_email" ->
                Intent.EMAIL_MANAGE;
            case "second-brain/store_thought" -> Intent.MEMORY_STORE;
            case "second-brain/search_memory", "second-brain/summarize_project", "second-brain/answer_from_memory" ->
                Intent.MEMORY_QUERY;
            case "second-brain/delete_memory", "second-brain/update_memory" -> Intent.MEMORY_FORGET;
            case "meta/help" -> Intent.META_HELP;
            case "weft.undo/undo" -> Intent.UNDO;
            default -> Intent.SMALL_TALK;
        };
    }

    public static void main(String[] args) throws Exception {
        IntentClassifier classifier = IntentClassifier.create();
        TimeParser time = TimeParser.create();
        ZonedDateTime now = ZonedDateTime.parse("2026-11-24T10:00:00+02:00[Asia/Jerusalem]");
        int total = 0;
        int right = 0;
        TreeMap<String, int[]> byIntent = new TreeMap<>();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode entry = Json.parse(line, "line");
            String message = entry.path("message").asText();
            JsonNode first = entry.has("expect") && entry.get("expect").get(0).has("capability")
                    ? entry.get("expect").get(0)
                    : null;
            Intent want;
            if (first != null) {
                want = of(first.get("capability").asText(), first.get("action").asText());
            } else {
                String route = entry.get("expect").get(0).get(0).asText();
                want = route.startsWith("general/")
                                && entry.path("scope").asText().equals("out")
                        ? Intent.OOS_DEVICE
                        : of(route.split("/")[0], route.split("/")[1]);
            }
            if (entry.has("expect") && entry.get("expect").size() > 1) {
                continue;
            }
            boolean hebrew = message.chars().anyMatch(c -> c >= 0x590 && c <= 0x5FF);
            String text = Utterances.withoutLead(message);
            var words = Utterances.tokens(text, time.find(text, now, hebrew ? Language.HEBREW : Language.ENGLISH));
            IntentClassifier.Classification got = classifier.classify(words);
            boolean ok = got.top() == want
                    || (want.outOfScope() && got.top().outOfScope())
                    || (want == Intent.SMALL_TALK && (got.top().outOfScope() || got.top() == Intent.META_HELP));
            total++;
            byIntent.computeIfAbsent(want.label(), k -> new int[2])[ok ? 0 : 1]++;
            if (ok) {
                right++;
            } else {
                System.out.printf(
                        "MISS %-60s want %-18s got %-18s %.2f %s%n",
                        message, want.label(), got.top().label(), got.confidence(), words);
            }
        }
        byIntent.forEach((k, v) -> System.out.printf("%-22s %3d/%3d%n", k, v[0], v[0] + v[1]));
        System.out.printf("%d/%d = %.1f%%%n", right, total, 100.0 * right / total);
    }
}
