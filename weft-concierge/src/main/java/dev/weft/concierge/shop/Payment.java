package dev.weft.concierge.shop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.util.Objects;

/** A way of paying: its kind ({@code credit_card}, {@code paypal}, {@code gift_card}) and how it is shown ("Visa ending 4242"). */
public record Payment(String kind, String label) {
    public Payment {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(label, "label");
    }

    public ObjectNode toJson() {
        ObjectNode json = Json.object();
        json.put("kind", kind);
        json.put("label", label);
        return json;
    }

    static Payment fromJson(JsonNode json) {
        return new Payment(json.path("kind").asText(), json.path("label").asText());
    }
}
