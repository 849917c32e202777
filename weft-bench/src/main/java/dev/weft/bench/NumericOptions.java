package dev.weft.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A benchmark's {@code --name N} options, each a whole number with a default and a lower bound.
 * Immutable once parsed.
 */
final class NumericOptions {
    /** An option the benchmark accepts: its default, and the least value that makes sense. */
    record Option(long defaultValue, long minimum) {}

    private final Map<String, Long> values;

    private NumericOptions(Map<String, Long> values) {
        this.values = Map.copyOf(values);
    }

    /**
     * Reads {@code args} against {@code options} (keyed by name, without the dashes).
     *
     * @throws UsageException naming the argument that is unknown, missing its value, not a whole
     *     number or too small, followed by {@code usage}
     */
    static NumericOptions parse(String[] args, Map<String, Option> options, String usage) {
        Map<String, Long> values = new LinkedHashMap<>();
        options.forEach((name, option) -> values.put(name, option.defaultValue()));
        for (int i = 0; i < args.length; i++) {
            String name = args[i].startsWith("--") ? args[i].substring(2) : "";
            Option option = options.get(name);
            if (option == null) {
                throw new UsageException("unknown argument '" + args[i] + "'\n" + usage);
            }
            if (i + 1 == args.length) {
                throw new UsageException(args[i] + " needs a number\n" + usage);
            }
            String text = args[++i];
            long value;
            try {
                value = Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw new UsageException("--" + name + " must be a whole number, was '" + text + "'\n" + usage);
            }
            if (value < option.minimum()) {
                throw new UsageException(
                        "--" + name + " must be at least " + option.minimum() + ", was " + value + "\n" + usage);
            }
            values.put(name, value);
        }
        return new NumericOptions(values);
    }

    long value(String name) {
        Long value = values.get(name);
        if (value == null) {
            throw new IllegalArgumentException("no option '" + name + "'; the options are " + values.keySet());
        }
        return value;
    }

    int intValue(String name) {
        return Math.toIntExact(value(name));
    }
}
