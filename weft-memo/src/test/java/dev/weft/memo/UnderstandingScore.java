package dev.weft.memo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Scores how well Memo understands requests written by people who never saw it: a held-out set (one
 * request a line, {@code {"message", "lang", "family", "scope", "expect"}}) against what
 * {@code weft memo ask --batch FILE --json --mode preview} planned for it, line by line in order.
 *
 * <p>A request is <b>routed right</b> when each expected step is matched, in order, by a plan step of
 * one of its acceptable routes ({@code capability/action}), and the plan has no other step that
 * writes. Steps that only read may come in between (a search before a reply), and a matched route may
 * repeat (one {@code add_item} per item). A plan step writes unless its action reads: {@code list_},
 * {@code find_}, {@code check_}, {@code search_}, {@code read_}, {@code get_}, {@code summarize_},
 * {@code describe_}, {@code answer_}, {@code respond}, {@code help}; so an unknown action counts as a write.
 *
 * <p>Usage: {@code batch HELDOUT [NOW]} prints the batch input for a held-out file (a user of its own
 * for each line, so no request sees another's conversation); {@code score HELDOUT RESULTS [HELDOUT
 * RESULTS ...]} prints the figures per language and overall, a table per family, and every miss. Run it
 * as a source file on the CLI's class path, as {@code score.sh} beside the sets does.
 */
public final class UnderstandingScore {
    /** The time every request is asked at unless its line says otherwise: a Tuesday morning. */
    static final String NOW = "2026-11-24T10:00:00+02:00";

    static final String ZONE = "Asia/Jerusalem";

    private static final List<String> READING_PREFIXES =
            List.of("list_", "find_", "check_", "search_", "read_", "get_", "summarize_", "describe_", "answer_");
    private static final Set<String> READING_ACTIONS = Set.of("respond", "help");
    private static final Set<String> CONVERSATION = Set.of("general", "meta");

    private UnderstandingScore() {}

    /** One held-out request and the routes its steps may take. */
    record Case(String message, String lang, String family, boolean inScope, List<Set<String>> expect) {
        Case {
            expect = expect.stream().map(Set::copyOf).toList();
            if (expect.isEmpty() || expect.stream().anyMatch(Set::isEmpty)) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "\"" + message + "\": expect needs a route per step");
            }
        }

        static Case of(JsonNode line) {
            String message = text(line, "message");
            List<Set<String>> steps = new ArrayList<>();
            for (JsonNode step : line.path("expect")) {
                List<String> routes = new ArrayList<>();
                step.forEach(route -> routes.add(route.asText()));
                steps.add(Set.copyOf(routes));
            }
            String scope = text(line, "scope");
            if (!scope.equals("in") && !scope.equals("out")) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "\"" + message + "\": scope is in or out, was " + scope);
            }
            return new Case(message, text(line, "lang"), text(line, "family"), scope.equals("in"), steps);
        }

        /** Whether the right answer is a capability's step rather than a reply. */
        boolean needsAction() {
            return expect.stream().flatMap(Set::stream).noneMatch(r -> CONVERSATION.contains(r.split("/")[0]));
        }

        private static String text(JsonNode line, String field) {
            if (!line.path(field).isTextual()) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "a held-out line needs \"" + field + "\": " + line);
            }
            return line.get(field).asText();
        }
    }

    /** What Memo planned for one case: its routes in order, or the error it answered with. */
    record Outcome(Case request, List<String> routes, Optional<String> error) {
        Outcome {
            routes = List.copyOf(routes);
        }

        static Outcome of(Case request, JsonNode result) {
            if (result.has("error")) {
                return new Outcome(
                        request,
                        List.of(),
                        Optional.of(result.path("error").path("code").asText("error") + ": "
                                + result.path("error").path("message").asText()));
            }
            JsonNode plan = result.path("plan");
            JsonNode steps = plan.has("steps") ? plan.path("steps") : plan.path("plan");
            List<String> routes = new ArrayList<>();
            for (JsonNode step : steps) {
                routes.add(step.path("capability").asText() + "/"
                        + step.path("action").asText());
            }
            return new Outcome(request, routes, Optional.empty());
        }

        /** Every expected step matched in order by an acceptable route, and no other step that writes. */
        boolean routedRight() {
            if (error.isPresent()) {
                return false;
            }
            List<Set<String>> expect = request.expect();
            int next = 0;
            Set<String> last = Set.of();
            for (String route : routes) {
                if (next < expect.size() && expect.get(next).contains(route)) {
                    last = expect.get(next++);
                } else if (!last.contains(route) && writes(route)) {
                    return false;
                }
            }
            return next == expect.size();
        }

        boolean actsOn() {
            return routes.stream().anyMatch(UnderstandingScore::writes);
        }

        /** An in-scope request that only reads (every route it expects reads) planned with a step that writes. */
        boolean readPlannedAsChange() {
            return request.inScope()
                    && request.expect().stream().flatMap(Set::stream).noneMatch(UnderstandingScore::writes)
                    && actsOn();
        }

        /** A request that needs a capability answered with talk (or nothing) alone. */
        boolean refused() {
            return error.isEmpty()
                    && request.needsAction()
                    && routes.stream().allMatch(r -> CONVERSATION.contains(r.split("/")[0]));
        }
    }

    /** The outcomes of one or more held-out files, and the figures drawn from them. */
    record Report(List<Outcome> outcomes) {
        Report {
            outcomes = List.copyOf(outcomes);
        }

        List<Outcome> of(Optional<String> lang) {
            return outcomes.stream()
                    .filter(o -> lang.isEmpty() || o.request().lang().equals(lang.get()))
                    .toList();
        }

        /** Share of requests routed right. */
        double routedRight(Optional<String> lang) {
            return share(of(lang), o -> true, Outcome::routedRight);
        }

        /** Share of out-of-scope requests whose plan has a step that writes. */
        double outOfScopeActedOn(Optional<String> lang) {
            return share(of(lang), o -> !o.request().inScope(), Outcome::actsOn);
        }

        /** Share of in-scope requests that need a capability but got only a reply. */
        double inScopeRefused(Optional<String> lang) {
            return share(of(lang), o -> o.request().inScope() && o.request().needsAction(), Outcome::refused);
        }

        /** How many requests that only read were planned with a step that writes (the aim is 0). */
        long readsPlannedAsChanges(Optional<String> lang) {
            return of(lang).stream().filter(Outcome::readPlannedAsChange).count();
        }

        long errors(Optional<String> lang) {
            return of(lang).stream().filter(o -> o.error().isPresent()).count();
        }

        List<String> languages() {
            return outcomes.stream().map(o -> o.request().lang()).distinct().toList();
        }

        private static double share(List<Outcome> all, Predicate<Outcome> among, Predicate<Outcome> counted) {
            List<Outcome> base = all.stream().filter(among).toList();
            return base.isEmpty() ? 0 : (double) base.stream().filter(counted).count() / base.size();
        }

        void print(PrintStream out) {
            List<String> langs = languages();
            List<Optional<String>> columns = new ArrayList<>();
            langs.forEach(l -> columns.add(Optional.of(l)));
            columns.add(Optional.empty());
            StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-28s", ""));
            columns.forEach(c -> head.append(String.format(Locale.ROOT, "%10s", c.orElse("all"))));
            out.println(head);
            row(out, "requests", columns, c -> String.valueOf(of(c).size()));
            row(out, "routed right", columns, c -> percent(routedRight(c)));
            row(out, "out-of-scope acted on", columns, c -> percent(outOfScopeActedOn(c)));
            row(out, "in-scope wrongly refused", columns, c -> percent(inScopeRefused(c)));
            row(out, "reads planned as changes", columns, c -> String.valueOf(readsPlannedAsChanges(c)));
            row(out, "errors", columns, c -> String.valueOf(errors(c)));

            out.println();
            StringBuilder familyHead = new StringBuilder(String.format(Locale.ROOT, "%-28s", "family"));
            columns.forEach(c -> familyHead.append(String.format(Locale.ROOT, "%14s", c.orElse("all"))));
            out.println(familyHead);
            Map<String, List<Outcome>> families = new TreeMap<>(outcomes.stream()
                    .collect(Collectors.groupingBy(o -> o.request().family())));
            families.forEach((family, members) -> {
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-28s", family));
                for (Optional<String> c : columns) {
                    List<Outcome> cell = members.stream()
                            .filter(o -> c.isEmpty() || o.request().lang().equals(c.get()))
                            .toList();
                    long right = cell.stream().filter(Outcome::routedRight).count();
                    line.append(String.format(
                            Locale.ROOT,
                            "%14s",
                            cell.isEmpty()
                                    ? "-"
                                    : right + "/" + cell.size() + " " + Math.round(100.0 * right / cell.size()) + "%"));
                }
                out.println(line);
            });

            out.println();
            out.println("reads planned as changes (message -> planned):");
            for (Outcome o : outcomes) {
                if (o.readPlannedAsChange()) {
                    out.println("  [" + o.request().lang() + "] " + o.request().message() + "  ->  "
                            + String.join(", ", o.routes()));
                }
            }

            out.println();
            out.println("misses (message -> planned; expected):");
            for (Outcome o : outcomes) {
                if (!o.routedRight()) {
                    out.println("  [" + o.request().lang() + "] " + o.request().family() + "  "
                            + o.request().message()
                            + "  ->  "
                            + o.error().orElse(o.routes().isEmpty() ? "(no step)" : String.join(", ", o.routes()))
                            + "  ;  "
                            + o.request().expect().stream()
                                    .map(s -> String.join("|", new java.util.TreeSet<>(s)))
                                    .collect(Collectors.joining(", ")));
                }
            }
        }

        private static void row(
                PrintStream out,
                String name,
                List<Optional<String>> columns,
                java.util.function.Function<Optional<String>, String> cell) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-28s", name));
            columns.forEach(c -> line.append(String.format(Locale.ROOT, "%10s", cell.apply(c))));
            out.println(line);
        }

        private static String percent(double share) {
            return String.format(Locale.ROOT, "%.1f %%", 100 * share);
        }
    }

    /** Whether a {@code capability/action} route changes something. */
    static boolean writes(String route) {
        String action = route.substring(route.indexOf('/') + 1);
        return !READING_ACTIONS.contains(action) && READING_PREFIXES.stream().noneMatch(action::startsWith);
    }

    static List<Case> cases(Path heldOut) {
        return lines(heldOut).stream().map(Case::of).toList();
    }

    /** The outcomes of {@code heldOut}'s requests from the batch results, which must be one per line in order. */
    static List<Outcome> outcomes(Path heldOut, Path results) {
        List<Case> cases = cases(heldOut);
        List<JsonNode> answers = lines(results);
        if (answers.size() != cases.size()) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    results + " has " + answers.size() + " results for the " + cases.size() + " requests of "
                            + heldOut);
        }
        List<Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            outcomes.add(Outcome.of(cases.get(i), answers.get(i)));
        }
        return outcomes;
    }

    /** The batch input for {@code heldOut}: each request at its own time or {@code now}, by a user of its own. */
    static List<String> batch(Path heldOut, String now) {
        List<String> out = new ArrayList<>();
        List<JsonNode> lines = lines(heldOut);
        for (int i = 0; i < lines.size(); i++) {
            JsonNode line = lines.get(i);
            Case request = Case.of(line);
            ObjectNode ask = Json.object();
            ask.put("message", request.message());
            ask.put("now", line.path("now").isTextual() ? line.get("now").asText() : now);
            ask.put("tz", ZONE);
            ask.put("user", "heldout-" + request.lang() + "-" + (i + 1));
            ask.put("mode", "preview");
            out.add(Json.write(ask));
        }
        return out;
    }

    private static List<JsonNode> lines(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "no file " + file);
        }
        List<String> text;
        try {
            text = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "cannot read " + file + ": " + e.getMessage());
        }
        List<JsonNode> out = new ArrayList<>();
        for (int i = 0; i < text.size(); i++) {
            if (!text.get(i).isBlank()) {
                out.add(Json.parse(text.get(i), file.getFileName() + " line " + (i + 1)));
            }
        }
        return out;
    }

    public static void main(String[] args) {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try {
            if (args.length >= 2 && args.length <= 3 && args[0].equals("batch")) {
                batch(Path.of(args[1]), args.length == 3 ? args[2] : NOW).forEach(out::println);
            } else if (args.length >= 3 && args.length % 2 == 1 && args[0].equals("score")) {
                List<Outcome> outcomes = new ArrayList<>();
                for (int i = 1; i < args.length; i += 2) {
                    outcomes.addAll(outcomes(Path.of(args[i]), Path.of(args[i + 1])));
                }
                new Report(outcomes).print(out);
            } else {
                System.err.println("usage: UnderstandingScore batch HELDOUT [NOW]");
                System.err.println("       UnderstandingScore score HELDOUT RESULTS [HELDOUT RESULTS ...]");
                System.exit(2);
            }
        } catch (WeftException e) {
            System.err.println(e.code() + ": " + e.getMessage());
            System.exit(1);
        }
    }
}
