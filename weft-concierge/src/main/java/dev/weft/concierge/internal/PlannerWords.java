package dev.weft.concierge.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The offline planner's words, as data ({@code planner-words.tsv} beside it: one list a line,
 * {@code NAME<TAB>phrase|phrase|…}, English and Hebrew), so that a shop adds words without touching the
 * rules. Read once; immutable and thread-safe.
 */
final class PlannerWords {
    private final Map<String, List<String>> lists;

    private PlannerWords(Map<String, List<String>> lists) {
        this.lists = Map.copyOf(lists);
    }

    /** The lists of {@code resource}, beside this class. */
    static PlannerWords load(String resource) {
        try (InputStream in = PlannerWords.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(
                        "no word lists " + resource + " beside " + PlannerWords.class.getName());
            }
            Map<String, List<String>> lists = new LinkedHashMap<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int tab = line.indexOf('\t');
                if (tab < 0) {
                    throw new IllegalStateException(resource + ": a line is 'NAME<TAB>phrase|phrase', was " + line);
                }
                lists.put(
                        line.substring(0, tab).strip(),
                        List.of(line.substring(tab + 1).strip().split("\\|")));
            }
            return new PlannerWords(lists);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The list {@code name} as phrases to find in a message. */
    Phrases phrases(String name) {
        return Phrases.of(list(name).toArray(String[]::new));
    }

    /** The list {@code name} as a set of words. */
    Set<String> set(String name) {
        return Set.copyOf(list(name));
    }

    private List<String> list(String name) {
        List<String> list = lists.get(name);
        if (list == null) {
            throw new IllegalStateException("no word list " + name + " in the planner's words");
        }
        return list;
    }
}
