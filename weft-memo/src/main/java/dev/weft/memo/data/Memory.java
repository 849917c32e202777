package dev.weft.memo.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** One thing a user asked Memo to keep: what they said, its tags, the project it is about, and when. */
public record Memory(
        String id, String content, List<String> tags, Optional<String> project, Instant createdAt, Instant updatedAt) {
    public Memory {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(content, "content");
        tags = List.copyOf(tags);
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    /** What the memory is found by: its content, tags and project. */
    String searchable() {
        return content + " " + String.join(" ", tags) + " " + project.orElse("");
    }

    /** {@code {"id", "content", "tags", "projectId"?, "createdAt", "updatedAt"}}. */
    public ObjectNode toJson() {
        ObjectNode json = Json.object();
        json.put("id", id);
        json.put("content", content);
        tags.forEach(json.putArray("tags")::add);
        project.ifPresent(p -> json.put("projectId", p));
        json.put("createdAt", createdAt.toString());
        json.put("updatedAt", updatedAt.toString());
        return json;
    }

    /** The memory {@link #toJson} wrote (an undo's copy). */
    public static Memory fromJson(JsonNode json) {
        List<String> tags = new ArrayList<>();
        json.path("tags").forEach(t -> tags.add(t.asText()));
        return new Memory(
                json.path("id").asText(),
                json.path("content").asText(),
                tags,
                json.hasNonNull("projectId") ? Optional.of(json.get("projectId").asText()) : Optional.empty(),
                Instant.parse(json.path("createdAt").asText()),
                Instant.parse(json.path("updatedAt").asText()));
    }
}
