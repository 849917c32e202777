package dev.weft.concierge.shop;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** One variant of a product: its option values ({@code color: blue, size: M}, in the product's order), price and stock. */
public record Variant(String id, String productId, Map<String, String> options, long priceCents, int stock) {
    public Variant {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(productId, "productId");
        options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
        if (priceCents < 0 || stock < 0) {
            throw new IllegalArgumentException(
                    "variant " + id + ": price and stock must not be negative, were " + priceCents + " and " + stock);
        }
    }

    public boolean inStock() {
        return stock > 0;
    }

    /** The option values, as a customer reads them: "blue, M"; empty for a product of one variant. */
    public String describe() {
        return String.join(", ", options.values());
    }

    public ObjectNode optionsJson() {
        ObjectNode json = Json.object();
        options.forEach(json::put);
        return json;
    }

    Variant withStock(int stock) {
        return new Variant(id, productId, options, priceCents, stock);
    }
}
