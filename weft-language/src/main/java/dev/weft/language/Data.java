package dev.weft.language;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The layer's word lists, read once from the tab-separated files beside its classes. */
final class Data {
    private Data() {}

    /** The lines of {@code resource} split at tabs, without blank lines and {@code #} comments. */
    static List<String[]> rows(String resource) {
        try (InputStream in = Data.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no word list " + resource + " beside " + Data.class.getName());
            }
            List<String[]> rows = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String stripped = line.strip();
                if (!stripped.isEmpty() && !stripped.startsWith("#")) {
                    rows.add(stripped.split("\t+"));
                }
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first column of each row of {@code resource}, folded, to its second as written. */
    static Map<String, String> pairs(String resource) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (String[] row : rows(resource)) {
            if (row.length != 2) {
                throw new IllegalStateException(
                        resource + ": a row is 'written<TAB>meant', was " + String.join("|", row));
            }
            pairs.put(Folding.fold(row[0]), row[1]);
        }
        return Map.copyOf(pairs);
    }
}
