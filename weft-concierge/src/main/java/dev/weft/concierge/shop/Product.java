package dev.weft.concierge.shop;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A product of the catalog: its name (and its Hebrew name), category, words it is known by, and its
 * variants in order.
 */
public record Product(
        String id,
        String name,
        String nameHe,
        String category,
        List<String> keywords,
        String description,
        List<Variant> variants) {
    public Product {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(nameHe, "nameHe");
        Objects.requireNonNull(category, "category");
        keywords = List.copyOf(keywords);
        Objects.requireNonNull(description, "description");
        variants = List.copyOf(variants);
    }

    public Optional<Variant> variant(String variantId) {
        return variants.stream().filter(v -> v.id().equals(variantId)).findFirst();
    }

    public boolean inStock() {
        return variants.stream().anyMatch(Variant::inStock);
    }

    /** The name in {@code language} ({@code he} or {@code en}). */
    public String name(String language) {
        return language.equals("he") ? nameHe : name;
    }
}
