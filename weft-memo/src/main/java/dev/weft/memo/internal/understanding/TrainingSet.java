package dev.weft.memo.internal.understanding;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;

/**
 * The sentences the intent classifier learns from, made out of templates: for each intent, lines
 * like {@code (move|push) [the] {event} to {time}}, with alternatives in parentheses, optional parts
 * in brackets and slots in braces, each slot a list of values ({@code $event = lunch with Noa |
 * the dentist}) that may hold the same syntax. Each template gives a few sentences drawn at random
 * from a seed of its own, so the set is the same on every build; some are led by what people say
 * before a request ({@code $lead}) or followed by what they say after it ({@code $tail}).
 *
 * <p>A template file reads: {@code # comment}, {@code $slot = a | b} (or {@code +=} to add),
 * {@code ## intent.label}, then the intent's templates, one a line.
 */
public final class TrainingSet {
    /** One sentence and the intent it asks for. */
    public record Example(String text, Intent intent) {
        public Example {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(intent, "intent");
        }
    }

    private static final int PER_TEMPLATE = 14;

    private TrainingSet() {}

    /** The examples of the template file {@code resource} (next to this class). */
    public static List<Example> of(String resource) {
        try (InputStream in = TrainingSet.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no template file " + resource + " beside " + TrainingSet.class);
            }
            return expand(new String(in.readAllBytes(), StandardCharsets.UTF_8), resource);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The examples of a template file's text.
     *
     * @throws IllegalArgumentException for an unknown intent, an undefined slot or broken syntax,
     *     naming the line
     */
    static List<Example> expand(String file, String name) {
        Map<String, List<String>> slots = new HashMap<>();
        List<Example> examples = new ArrayList<>();
        Intent intent = null;
        String[] lines = file.split("\n");
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].strip();
            String where = name + ":" + (n + 1);
            if (line.isEmpty() || (line.startsWith("#") && !line.startsWith("##"))) {
                continue;
            }
            if (line.startsWith("##")) {
                String label = line.substring(2).strip();
                intent = Intent.ofLabel(label)
                        .orElseThrow(() -> new IllegalArgumentException(where + ": no intent '" + label + "'"));
                continue;
            }
            if (line.startsWith("$")) {
                int eq = line.indexOf('=');
                if (eq < 0) {
                    throw new IllegalArgumentException(where + ": a slot line is '$name = a | b'");
                }
                boolean add = line.charAt(eq - 1) == '+';
                String slot = line.substring(1, add ? eq - 1 : eq).strip();
                List<String> values = new ArrayList<>();
                for (String value : line.substring(eq + 1).split("\\|(?![^()\\[\\]]*[)\\]])")) {
                    if (!value.isBlank()) {
                        values.add(value.strip());
                    }
                }
                if (add) {
                    slots.computeIfAbsent(slot, s -> new ArrayList<>()).addAll(values);
                } else {
                    slots.put(slot, values);
                }
                continue;
            }
            if (intent == null) {
                throw new IllegalArgumentException(where + ": a template before any '## intent'");
            }
            Random random = new Random(line.hashCode() * 31L + intent.ordinal());
            Set<String> made = new LinkedHashSet<>();
            for (int i = 0; i < PER_TEMPLATE * 3 && made.size() < PER_TEMPLATE; i++) {
                String sentence = render(line, slots, random, where, 0);
                if (random.nextInt(100) < 12 && slots.containsKey("lead")) {
                    sentence = render(pick(slots.get("lead"), random), slots, random, where, 0) + " " + sentence;
                } else if (random.nextInt(100) < 6 && slots.containsKey("tail")) {
                    sentence = sentence + " " + render(pick(slots.get("tail"), random), slots, random, where, 0);
                }
                made.add(sentence.replaceAll("\\s{2,}", " ").strip());
            }
            for (String sentence : made) {
                examples.add(new Example(sentence, intent));
                Intent labelled = intent;
                variant(sentence, random).ifPresent(v -> examples.add(new Example(v, labelled)));
            }
        }
        return examples;
    }

    /**
     * Sometimes, a sentence as people also write it: with one slip in a long word (two letters
     * swapped, one dropped or doubled: "remidn", "calendr", "תזכירר"), or terse, without its articles
     * and possessives ("move dentist to 5"). Drawn from the template's own seed, so the set is the same
     * on every build.
     */
    static java.util.Optional<String> variant(String sentence, Random random) {
        int roll = random.nextInt(100);
        if (roll < 14) {
            String[] words = sentence.split(" ");
            List<Integer> longWords = new ArrayList<>();
            for (int i = 0; i < words.length; i++) {
                if (words[i].length() >= 5 && words[i].chars().allMatch(Character::isLetter)) {
                    longWords.add(i);
                }
            }
            if (longWords.isEmpty()) {
                return java.util.Optional.empty();
            }
            int at = longWords.get(random.nextInt(longWords.size()));
            String w = words[at];
            int i = 1 + random.nextInt(w.length() - 2);
            words[at] = switch (random.nextInt(3)) {
                case 0 -> w.substring(0, i) + w.charAt(i + 1) + w.charAt(i) + w.substring(i + 2);
                case 1 -> w.substring(0, i) + w.substring(i + 1);
                default -> w.substring(0, i) + w.charAt(i) + w.substring(i);
            };
            return java.util.Optional.of(String.join(" ", words));
        }
        if (roll < 22) {
            String terse = TERSE.matcher(sentence)
                    .replaceAll("")
                    .replaceAll("\\s{2,}", " ")
                    .strip();
            return terse.equals(sentence) || terse.isEmpty()
                    ? java.util.Optional.empty()
                    : java.util.Optional.of(terse);
        }
        return java.util.Optional.empty();
    }

    private static final java.util.regex.Pattern TERSE = java.util.regex.Pattern.compile(
            "(?iU)\\b(?:the|my|a|an|please|can you|for me)\\b|(?<!\\S)(?:את|בבקשה|לי)(?!\\S)");

    private static String pick(List<String> values, Random random) {
        return values.get(random.nextInt(values.size()));
    }

    /** One sentence of {@code template}: alternatives chosen, optional parts kept or not, slots filled. */
    static String render(String template, Map<String, List<String>> slots, Random random, String where, int depth) {
        if (depth > 8) {
            throw new IllegalArgumentException(where + ": slots refer to each other too deeply");
        }
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c == '(' || c == '[') {
                int close = closing(template, i, where);
                List<String> options = alternatives(template.substring(i + 1, close));
                if (c == '[') {
                    if (random.nextBoolean()) {
                        out.append(render(pick(options, random), slots, random, where, depth));
                    }
                } else {
                    out.append(render(pick(options, random), slots, random, where, depth));
                }
                i = close + 1;
            } else if (c == '{') {
                int close = template.indexOf('}', i);
                if (close < 0) {
                    throw new IllegalArgumentException(where + ": '{' without '}'");
                }
                String slot = template.substring(i + 1, close);
                boolean optional = slot.endsWith("?");
                slot = optional ? slot.substring(0, slot.length() - 1) : slot;
                List<String> values = slots.get(slot);
                if (values == null || values.isEmpty()) {
                    throw new IllegalArgumentException(where + ": no slot '$" + slot + "'");
                }
                if (!optional || random.nextBoolean()) {
                    out.append(render(pick(values, random), slots, random, where, depth + 1));
                }
                i = close + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static int closing(String template, int open, String where) {
        int depth = 0;
        for (int i = open; i < template.length(); i++) {
            char c = template.charAt(i);
            if (c == '(' || c == '[') {
                depth++;
            } else if (c == ')' || c == ']') {
                depth--;
                if (depth == 0) {
                    return i;
                }
            }
        }
        throw new IllegalArgumentException(where + ": '" + template.charAt(open) + "' is never closed");
    }

    /** The top-level alternatives of a group's inside: {@code a|b(c|d)} is {@code a} and {@code b(c|d)}. */
    private static List<String> alternatives(String inside) {
        List<String> options = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < inside.length(); i++) {
            char c = inside.charAt(i);
            if (c == '(' || c == '[') {
                depth++;
            } else if (c == ')' || c == ']') {
                depth--;
            } else if (c == '|' && depth == 0) {
                options.add(inside.substring(start, i));
                start = i + 1;
            }
        }
        options.add(inside.substring(start));
        return options;
    }
}
