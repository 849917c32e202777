package dev.weft.assistant;

import dev.weft.core.Graph;
import dev.weft.core.NotFoundException;
import dev.weft.core.Run;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The assistants of one process, by name. Immutable and thread-safe.
 */
public final class Assistants {
    private final Map<String, Assistant> byName;

    private Assistants(Map<String, Assistant> byName) {
        this.byName = Collections.unmodifiableMap(byName);
    }

    /** These assistants, in this order; two with one name are a mistake. */
    public static Assistants of(Assistant... assistants) {
        return of(List.of(assistants));
    }

    /**
     * These assistants, in this order.
     *
     * @throws IllegalArgumentException for two assistants of one name
     */
    public static Assistants of(List<Assistant> assistants) {
        Map<String, Assistant> byName = new LinkedHashMap<>();
        for (Assistant assistant : assistants) {
            if (byName.putIfAbsent(assistant.name(), assistant) != null) {
                throw new IllegalArgumentException("two assistants are named '" + assistant.name() + "'");
            }
        }
        return new Assistants(byName);
    }

    /** The names of the assistants whose providers are on the class path, without opening any. */
    public static List<String> available() {
        List<String> names = new ArrayList<>();
        ServiceLoader.load(AssistantProvider.class).forEach(p -> names.add(p.name()));
        names.sort(null);
        return names;
    }

    /**
     * Opens assistant {@code name} from its provider on the class path.
     *
     * @throws NotFoundException when no provider has that name (the message lists those there are)
     */
    public static Assistant open(String name, AssistantEnvironment environment) {
        for (AssistantProvider provider : ServiceLoader.load(AssistantProvider.class)) {
            if (provider.name().equals(name)) {
                return provider.open(environment);
            }
        }
        throw new NotFoundException("no assistant '" + name + "': there are " + String.join(", ", available()));
    }

    /** Opens every assistant on the class path, sorted by name. */
    public static Assistants openAll(AssistantEnvironment environment) {
        List<Assistant> opened = new ArrayList<>();
        for (String name : available()) {
            opened.add(open(name, environment));
        }
        return of(opened);
    }

    /** This set with {@code assistant} added, or in place of the one of its name. */
    public Assistants with(Assistant assistant) {
        Map<String, Assistant> copy = new LinkedHashMap<>(byName);
        copy.put(assistant.name(), assistant);
        return new Assistants(copy);
    }

    public Optional<Assistant> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /**
     * The assistant named {@code name}.
     *
     * @throws NotFoundException when there is none (the message lists those there are)
     */
    public Assistant get(String name) {
        return find(name)
                .orElseThrow(() -> new NotFoundException(
                        "no assistant '" + name + "': there are " + String.join(", ", byName.keySet())));
    }

    public List<Assistant> all() {
        return List.copyOf(byName.values());
    }

    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    /** The assistant whose run {@code run} is, if it is one of theirs. */
    public Optional<Assistant> ownerOf(Run run) {
        return byName.values().stream().filter(a -> a.owns(run)).findFirst();
    }

    /** The graph of a stored run of one of these assistants, rebuilt by the assistant that made it. */
    public Optional<Graph> graphOf(Run run) {
        for (Assistant assistant : byName.values()) {
            Optional<Graph> graph = assistant.graphOf(run);
            if (graph.isPresent()) {
                return graph;
            }
        }
        return Optional.empty();
    }
}
