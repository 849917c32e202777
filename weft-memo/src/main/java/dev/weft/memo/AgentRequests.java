package dev.weft.memo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.plan.Plan;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Tool;
import dev.weft.workflow.A2aAgents;
import dev.weft.workflow.A2aSendTool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A request to ask one of the configured remote A2A agents, read without a model: "ask the travel agent
 * to find a flight to Rome on Friday", "tell travel I'm late", "תשאל את סוכן הנסיעות …", "תבקש מסוכן
 * הנסיעות …", "תגיד לסוכן הנסיעות …". The agent is named by its name or a word it is called by ({@code
 * says}); the message sent is the rest of the request. A request naming no configured agent is left to
 * the planner it wraps, so an unknown agent gets no step. Kept apart from the intent classifier: it reads
 * before it, and only names a person configured.
 */
final class AgentRequests {
    /** How long one request to an agent may take before the step fails. */
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    private static final String ENGLISH_VERBS =
            "(?:please\\s+)?(?:can you\\s+|could you\\s+)?(?:ask|tell|have|message)";
    private static final String HEBREW_VERBS =
            "(?:בבקשה\\s+)?(?:תשאל|תשאלי|שאל|שאלי|תבקש|תבקשי|בקש|בקשי|תגיד|תגידי|תכתוב|תכתבי|תודיע|תודיעי)";

    private AgentRequests() {}

    /** The agents configured and the {@code a2a.send} tool over them. */
    record Configured(List<A2aAgents.Entry> agents, Optional<Tool> send) {
        Configured {
            agents = List.copyOf(agents);
            Objects.requireNonNull(send, "send");
        }

        static Configured none() {
            return new Configured(List.of(), Optional.empty());
        }

        static Configured of(A2aAgents agents, Function<String, Optional<String>> settings) {
            return new Configured(
                    agents.entries(), Optional.of(A2aSendTool.create(agents.agents(), settings, TIMEOUT)));
        }

        Tool tool() {
            return send.orElseThrow();
        }
    }

    /** {@code planner} knowing {@code agents}: a model's is told of them, any other reads requests to them first. */
    static Planner planner(Planner planner, List<A2aAgents.Entry> agents) {
        if (planner instanceof ModelPlanner model) {
            return model.withAgents(agents);
        }
        return new Planner() {
            @Override
            public String name() {
                return planner.name();
            }

            @Override
            public Plan plan(String message, Context context) {
                Optional<PlanStep> asked = read(message, agents);
                if (asked.isEmpty()) {
                    return planner.plan(message, context);
                }
                ObjectNode fact = context.facts().putArray("understood").addObject();
                fact.put("step", "A");
                fact.put("intent", "a2a.send");
                fact.put("agent", asked.get().constraints().path("agent").asText());
                return new Plan("operation", 1.0, List.of(asked.get()));
            }
        };
    }

    /**
     * The step asking a configured agent that {@code message} requests, {@code {"capability": "a2a",
     * "action": "send", "constraints": {"agent", "text"}}}; empty when it names none of {@code agents}
     * or says nothing to send.
     */
    static Optional<PlanStep> read(String message, List<A2aAgents.Entry> agents) {
        String text = message.strip();
        record Call(String agent, String words) {}
        List<Call> calls = new ArrayList<>();
        agents.forEach(e ->
                e.callNames().forEach(words -> calls.add(new Call(e.agent().name(), words))));
        // The longest words first: "travel agent" before "travel".
        calls.sort(Comparator.comparingInt((Call c) -> c.words().length()).reversed());
        for (Call call : calls) {
            Optional<String> said = english(text, call.words()).or(() -> hebrew(text, call.words()));
            if (said.isPresent()) {
                ObjectNode constraints = Json.object();
                constraints.put("agent", call.agent());
                constraints.put("text", said.get());
                return Optional.of(new PlanStep("A", "a2a", "send", constraints, Json.object(), List.of()));
            }
        }
        return Optional.empty();
    }

    private static Optional<String> english(String text, String words) {
        Pattern pattern = Pattern.compile(
                "^" + ENGLISH_VERBS + "\\s+(?:the\\s+)?" + Pattern.quote(words)
                        + "(?:\\s+agent)?(?:\\s*[,:]\\s*|\\s+(?:to|that)\\s+|\\s+)(?<rest>.+)$",
                Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL);
        return rest(pattern.matcher(text));
    }

    private static Optional<String> hebrew(String text, String words) {
        // "את סוכן הנסיעות", "מסוכן הנסיעות", "לסוכן הנסיעות", "ל-travel": the object's preposition, joined or not.
        // After 'ל' the article 'ה' is elided: "העוזר" is told as "לעוזר".
        String elided = words.startsWith("ה") ? "|ל-?" + Pattern.quote(words.substring(1)) : "";
        Pattern pattern = Pattern.compile(
                "^" + HEBREW_VERBS + "\\s+(?:(?:את\\s+|מ-?|ל-?)?" + Pattern.quote(words) + elided + ")"
                        + "(?:\\s*[,:]\\s*|\\s+)(?<rest>.+)$",
                Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL);
        return rest(pattern.matcher(text));
    }

    private static Optional<String> rest(Matcher matcher) {
        if (!matcher.matches()) {
            return Optional.empty();
        }
        String rest = matcher.group("rest").strip();
        return rest.isEmpty() ? Optional.empty() : Optional.of(rest);
    }
}
