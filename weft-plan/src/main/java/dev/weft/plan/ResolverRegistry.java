package dev.weft.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds the resolver for a step: the one registered for its capability and action, else any
 * resolver of its capability (seed 000 §7.1). Immutable; {@link #with} returns a new registry.
 */
public final class ResolverRegistry {
    private final List<Resolver> resolvers;

    private ResolverRegistry(List<Resolver> resolvers) {
        this.resolvers = List.copyOf(resolvers);
    }

    public static ResolverRegistry of(Resolver... resolvers) {
        return new ResolverRegistry(List.of(resolvers));
    }

    public ResolverRegistry with(Resolver resolver) {
        Objects.requireNonNull(resolver, "resolver");
        List<Resolver> copy = new ArrayList<>(resolvers);
        copy.add(resolver);
        return new ResolverRegistry(copy);
    }

    /** This registry with each resolver replaced by what {@code wrap} makes of it, in the same order. */
    public ResolverRegistry map(java.util.function.UnaryOperator<Resolver> wrap) {
        Objects.requireNonNull(wrap, "wrap");
        return new ResolverRegistry(resolvers.stream()
                .map(r -> Objects.requireNonNull(wrap.apply(r), "wrap made nothing of " + r.name()))
                .toList());
    }

    public Optional<Resolver> find(String capability, String action) {
        for (Resolver resolver : resolvers) {
            if (resolver.capability().equals(capability) && resolver.actions().contains(action)) {
                return Optional.of(resolver);
            }
        }
        return resolvers.stream().filter(r -> r.capability().equals(capability)).findFirst();
    }
}
