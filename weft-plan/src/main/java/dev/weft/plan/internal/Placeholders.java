package dev.weft.plan.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Seed 001's argument preparation: {@code $<stepId>.path} placeholders, {@code [*]} expansion into
 * child steps, implicit fan-out over a dependency's children, the user's answers merged over the
 * result, and a final check that nothing unresolved is left ({@code E_ARGS_UNRESOLVED}). Stateless.
 */
public final class Placeholders {
    /** {@code $id.path}: an id of letters, digits, '_' and '-'; a path of {@code .name}, {@code [n]} and {@code [*]}. */
    private static final Pattern PLACEHOLDER = Pattern.compile(
            "\\$([A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*)((?:\\.[A-Za-z_][A-Za-z0-9_]*|\\[\\d+\\]|\\[\\*\\])*)");

    private Placeholders() {}

    /** One call to make: the (child) step id and its arguments. */
    public record Prepared(String stepId, ObjectNode args) {}

    /**
     * Prepares a step's arguments.
     *
     * @param results the results of every step that has executed, by id (children such as {@code B-0}
     *     included)
     * @param scope the step ids the step may refer to: its dependencies, direct and indirect
     * @param stepIds every step id of the plan: {@code $id} is a placeholder only when {@code id} is
     *     one of them or a child of one ({@code B-0}); {@code $50} is text
     * @param lenient when true (a preview), placeholders that cannot be resolved are left as they are
     */
    public static List<Prepared> prepare(
            String stepId,
            ObjectNode args,
            Map<String, JsonNode> results,
            Set<String> scope,
            Set<String> stepIds,
            ObjectNode answers,
            boolean lenient) {
        if (!hasDollar(args)) {
            // Every placeholder starts with '$': with none in the arguments there is nothing to expand
            // or substitute, and only the answers merged in could leave one unresolved.
            ObjectNode merged = args.deepCopy();
            merge(merged, answers);
            if (!lenient && !answers.isEmpty()) {
                checkNoLeftovers(stepId, merged, stepIds);
            }
            return List.of(new Prepared(stepId, merged));
        }
        Optional<Expansion> expansion = findExpansion(stepId, args, results, scope, stepIds, lenient);
        List<Prepared> prepared = new ArrayList<>();
        if (expansion.isEmpty()) {
            prepared.add(new Prepared(stepId, finish(stepId, args, results, scope, stepIds, answers, lenient)));
            return prepared;
        }
        Expansion found = expansion.get();
        for (int i = 0; i < found.count(); i++) {
            ObjectNode child = (ObjectNode) found.rewrite(args, i);
            prepared.add(
                    new Prepared(stepId + "-" + i, finish(stepId, child, results, scope, stepIds, answers, lenient)));
        }
        return prepared;
    }

    private static ObjectNode finish(
            String stepId,
            ObjectNode args,
            Map<String, JsonNode> results,
            Set<String> scope,
            Set<String> stepIds,
            ObjectNode answers,
            boolean lenient) {
        JsonNode resolved = substitute(stepId, args, results, scope, stepIds, lenient);
        ObjectNode merged = resolved.deepCopy();
        merge(merged, answers);
        if (!lenient) {
            checkNoLeftovers(stepId, merged, stepIds);
        }
        return merged;
    }

    /** @throws WeftException with {@code E_ARGS_UNRESOLVED} naming every placeholder left in {@code args} */
    private static void checkNoLeftovers(String stepId, ObjectNode args, Set<String> stepIds) {
        List<String> left = new ArrayList<>();
        collectLeftovers(args, "", stepIds, left);
        if (!left.isEmpty()) {
            throw new WeftException(
                    ErrorCode.E_ARGS_UNRESOLVED,
                    "step '" + stepId + "': unresolved placeholder " + String.join(", ", left));
        }
    }

    /** Whether any text in {@code node} holds a '$', which every placeholder starts with. */
    private static boolean hasDollar(JsonNode node) {
        if (node.isTextual()) {
            return node.textValue().indexOf('$') >= 0;
        }
        if (node.isContainerNode()) {
            for (JsonNode child : node) {
                if (hasDollar(child)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A {@code [*]} over an array, or an implicit fan-out over a step's children. */
    private record Expansion(String pattern, String replacementPrefix, String suffix, int count) {
        JsonNode rewrite(JsonNode node, int index) {
            if (node.isTextual()) {
                String text = node.asText();
                String replaced = text.replace(pattern, replacementPrefix.replace("#", String.valueOf(index)) + suffix);
                return replaced.equals(text) ? node : TextNode.valueOf(replaced);
            }
            if (node.isObject()) {
                ObjectNode copy = Json.object();
                node.properties().forEach(e -> copy.set(e.getKey(), rewrite(e.getValue(), index)));
                return copy;
            }
            if (node.isArray()) {
                ArrayNode copy = Json.mapper().createArrayNode();
                node.forEach(item -> copy.add(rewrite(item, index)));
                return copy;
            }
            return node;
        }
    }

    private static Optional<Expansion> findExpansion(
            String stepId,
            JsonNode args,
            Map<String, JsonNode> results,
            Set<String> scope,
            Set<String> stepIds,
            boolean lenient) {
        List<String> texts = new ArrayList<>();
        collectTexts(args, texts);
        for (String text : texts) {
            Matcher m = PLACEHOLDER.matcher(text);
            while (m.find()) {
                if (PlaceholderRefs.stepOf(m.group(1), stepIds).isEmpty()) {
                    continue;
                }
                String path = m.group(2);
                int star = path.indexOf("[*]");
                Optional<Ref> ref = ref(m.group(1), path, results);
                if (ref.isEmpty()) {
                    continue;
                }
                Ref r = ref.get();
                if (star >= 0 && r.pathFromId().contains("[*]")) {
                    String arrayPath =
                            r.pathFromId().substring(0, r.pathFromId().indexOf("[*]"));
                    if (!scope.contains(r.stepId())) {
                        continue;
                    }
                    Optional<JsonNode> array = navigate(results.get(r.stepId()), arrayPath);
                    if (array.isEmpty() || !array.get().isArray()) {
                        if (lenient) {
                            continue;
                        }
                        throw new WeftException(
                                ErrorCode.E_ARGS_UNRESOLVED,
                                "step '" + stepId + "': $" + r.stepId() + arrayPath
                                        + " is not an array, so [*] cannot expand over it");
                    }
                    String prefix = "$" + r.stepId() + arrayPath + "[*]";
                    return Optional.of(new Expansion(
                            prefix,
                            "$" + r.stepId() + arrayPath + "[#]",
                            "",
                            array.get().size()));
                }
            }
            // Implicit fan-out: a reference to a step that has no result of its own, only children.
            m = PLACEHOLDER.matcher(text);
            while (m.find()) {
                String id = m.group(1);
                if (results.containsKey(id) || !scope.contains(id) || !stepIds.contains(id)) {
                    continue;
                }
                int children = 0;
                while (results.containsKey(id + "-" + children)) {
                    children++;
                }
                if (children > 0) {
                    return Optional.of(new Expansion("$" + id + ".", "$" + id + "-#", ".", children));
                }
            }
        }
        return Optional.empty();
    }

    private record Ref(String stepId, String pathFromId) {}

    /** A placeholder's step, when that step has a result, and the path into it. */
    private static Optional<Ref> ref(String id, String path, Map<String, JsonNode> results) {
        return results.containsKey(id) ? Optional.of(new Ref(id, path)) : Optional.empty();
    }

    private static JsonNode substitute(
            String stepId,
            JsonNode node,
            Map<String, JsonNode> results,
            Set<String> scope,
            Set<String> stepIds,
            boolean lenient) {
        if (node.isTextual()) {
            return substituteText(stepId, node.asText(), results, scope, stepIds, lenient);
        }
        if (node.isObject()) {
            ObjectNode copy = Json.object();
            node.properties()
                    .forEach(e ->
                            copy.set(e.getKey(), substitute(stepId, e.getValue(), results, scope, stepIds, lenient)));
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = Json.mapper().createArrayNode();
            node.forEach(item -> copy.add(substitute(stepId, item, results, scope, stepIds, lenient)));
            return copy;
        }
        return node;
    }

    private static JsonNode substituteText(
            String stepId,
            String text,
            Map<String, JsonNode> results,
            Set<String> scope,
            Set<String> stepIds,
            boolean lenient) {
        Matcher whole = PLACEHOLDER.matcher(text);
        if (whole.matches() && PlaceholderRefs.stepOf(whole.group(1), stepIds).isPresent()) {
            Optional<JsonNode> value = lookup(stepId, whole.group(1), whole.group(2), results, scope, lenient);
            return value.orElse(TextNode.valueOf(text));
        }
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        boolean changed = false;
        while (m.find()) {
            if (PlaceholderRefs.stepOf(m.group(1), stepIds).isEmpty()) {
                m.appendReplacement(out, Matcher.quoteReplacement(m.group()));
                continue;
            }
            Optional<JsonNode> value = lookup(stepId, m.group(1), m.group(2), results, scope, lenient);
            String replacement =
                    value.map(v -> v.isTextual() ? v.asText() : Json.write(v)).orElse(m.group());
            changed |= value.isPresent();
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return changed ? TextNode.valueOf(out.toString()) : TextNode.valueOf(text);
    }

    private static Optional<JsonNode> lookup(
            String stepId, String id, String path, Map<String, JsonNode> results, Set<String> scope, boolean lenient) {
        Optional<Ref> ref = ref(id, path, results);
        if (ref.isEmpty()) {
            if (lenient) {
                return Optional.empty();
            }
            String base = baseStep(id, scope);
            throw new WeftException(
                    ErrorCode.E_ARGS_UNRESOLVED,
                    "step '" + stepId + "': $" + id + path + " refers to step '" + base + "', "
                            + (scope.contains(base) ? "which has no result" : "which it does not depend on"));
        }
        Ref r = ref.get();
        String base = baseStep(r.stepId(), scope);
        if (!scope.contains(base)) {
            if (lenient) {
                return Optional.empty();
            }
            throw new WeftException(
                    ErrorCode.E_ARGS_UNRESOLVED,
                    "step '" + stepId + "': $" + id + path + " refers to step '" + base
                            + "', which it does not depend on");
        }
        Optional<JsonNode> value = navigate(results.get(r.stepId()), r.pathFromId());
        if (value.isEmpty() && !lenient) {
            throw new WeftException(
                    ErrorCode.E_ARGS_UNRESOLVED,
                    "step '" + stepId + "': $" + id + path + ": the result of step '" + r.stepId() + "' has no "
                            + (r.pathFromId().isEmpty() ? "value" : "'" + r.pathFromId() + "'"));
        }
        return value;
    }

    /** The plan step an id belongs to: {@code B-0-1} belongs to {@code B} when {@code B} is in scope. */
    private static String baseStep(String id, Set<String> scope) {
        String candidate = id;
        while (!scope.contains(candidate)) {
            int dash = candidate.lastIndexOf('-');
            if (dash < 0) {
                return id;
            }
            candidate = candidate.substring(0, dash);
        }
        return candidate;
    }

    private static final Pattern SEGMENT = Pattern.compile("\\.([A-Za-z_][A-Za-z0-9_]*)|\\[(\\d+)\\]");

    static Optional<JsonNode> navigate(JsonNode root, String path) {
        if (root == null) {
            return Optional.empty();
        }
        JsonNode current = root;
        Matcher m = SEGMENT.matcher(path);
        int at = 0;
        while (m.find()) {
            if (m.start() != at) {
                return Optional.empty();
            }
            at = m.end();
            current = m.group(1) != null ? current.get(m.group(1)) : current.get(Integer.parseInt(m.group(2)));
            if (current == null || current.isMissingNode()) {
                return Optional.empty();
            }
        }
        return at == path.length() ? Optional.of(current) : Optional.empty();
    }

    private static void merge(ObjectNode target, ObjectNode answers) {
        Iterator<Map.Entry<String, JsonNode>> it = answers.properties().iterator();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode existing = target.get(e.getKey());
            if (existing != null && existing.isObject() && e.getValue().isObject()) {
                merge((ObjectNode) existing, (ObjectNode) e.getValue());
            } else {
                target.set(e.getKey(), e.getValue());
            }
        }
    }

    private static void collectTexts(JsonNode node, List<String> out) {
        if (node.isTextual()) {
            out.add(node.asText());
        } else if (node.isContainerNode()) {
            node.forEach(child -> collectTexts(child, out));
        }
    }

    private static void collectLeftovers(JsonNode node, String pointer, Set<String> stepIds, List<String> out) {
        if (node.isTextual()) {
            Matcher m = PLACEHOLDER.matcher(node.asText());
            while (m.find()) {
                if (PlaceholderRefs.stepOf(m.group(1), stepIds).isPresent()) {
                    out.add(m.group() + " at " + (pointer.isEmpty() ? "/" : pointer));
                }
            }
        } else if (node.isObject()) {
            node.properties().forEach(e -> collectLeftovers(e.getValue(), pointer + "/" + e.getKey(), stepIds, out));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectLeftovers(node.get(i), pointer + "/" + i, stepIds, out);
            }
        }
    }
}
