package dev.weft.concierge.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.concierge.Goal;
import dev.weft.concierge.shop.ShopTools;
import dev.weft.concierge.spi.MemoryFact;
import dev.weft.concierge.spi.Specialist;
import dev.weft.concierge.spi.SpecialistInput;
import dev.weft.concierge.spi.SpecialistOutput;
import dev.weft.concierge.spi.ToolRequest;
import dev.weft.concierge.spi.ToolResult;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.StepScope;
import dev.weft.core.WeftException;
import dev.weft.llm.Model;
import dev.weft.llm.ModelOutputInvalidException;
import dev.weft.llm.PlanTools;
import dev.weft.llm.Prompt;
import dev.weft.llm.SecondPass;
import dev.weft.llm.StepModels;
import dev.weft.llm.ToolCall;
import dev.weft.llm.ToolChoice;
import dev.weft.llm.ToolDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The specialist that asks a model: its first pass offers the goal's tools (tool calling; a call of any
 * other tool is {@code E_TOOL_NOT_ALLOWED}), its second gives the model the results and asks for the
 * answer as structured output ({@code answer.schema.json}); tools it asks for then are passed on to the
 * dispatcher, which refuses them. The conversation's session and a change's dry run are the
 * dispatcher's, so the model is never offered them. Thread-safe.
 */
public final class ModelSpecialist implements Specialist {
    private static final String SYSTEM = Resources.text("specialist-system.txt");
    private static final JsonNode SCHEMA = Resources.json("answer.schema.json");

    private final Model model;
    private final ShopTools tools;

    public ModelSpecialist(Model model, ShopTools tools) {
        this.model = Objects.requireNonNull(model, "model");
        this.tools = Objects.requireNonNull(tools, "tools");
    }

    /** The goal's tools as the model is offered them: without the session and the dry run. */
    private List<ToolDefinition> offered(Goal goal) {
        List<ToolDefinition> offered = new ArrayList<>();
        for (String name : goal.tools()) {
            ToolDefinition definition =
                    PlanTools.definition(tools.registry().find(name).orElseThrow());
            ObjectNode parameters = (ObjectNode) definition.parameters().deepCopy();
            ((ObjectNode) parameters.path("properties")).remove(List.of(ShopTools.SESSION, ShopTools.DRY_RUN));
            if (parameters.path("required").isArray()) {
                ArrayNode required = parameters.putArray("required");
                definition.parameters().path("required").forEach(r -> {
                    if (!r.asText().equals(ShopTools.SESSION)) {
                        required.add(r);
                    }
                });
            }
            offered.add(new ToolDefinition(definition.name(), definition.description(), parameters));
        }
        return offered;
    }

    private static Prompt prompt(SpecialistInput input) {
        ObjectNode request = Json.object();
        request.put("goal", input.goal().id());
        request.put("language", input.language());
        request.put("message", input.text());
        request.put("verified", input.state().path("customer").path("verified").asBoolean(false));
        request.set("customer", input.state().path("customer"));
        request.set("request", input.state().path("request"));
        request.put("awaiting", input.state().path("awaiting").asText("nothing"));
        ArrayNode memory = request.putArray("memory");
        input.memory()
                .forEach(f -> memory.addObject()
                        .put("kind", f.kind())
                        .put("item", f.item())
                        .put("value", f.value()));
        ArrayNode recent = request.putArray("recent");
        input.recent().forEach(recent::add);
        return new Prompt(SYSTEM, Json.write(request));
    }

    @Override
    public SpecialistOutput first(StepScope step, SpecialistInput input) {
        ToolChoice choice;
        try {
            choice = StepModels.chooseTools(step, model, prompt(input), offered(input.goal()));
        } catch (ModelOutputInvalidException e) {
            if (e.pointer().endsWith("/name")) {
                throw new WeftException(
                        ErrorCode.E_TOOL_NOT_ALLOWED,
                        "the model working on " + input.goal().id() + " asked for a tool that is not among its tools ("
                                + String.join(", ", input.goal().tools()) + "): " + e.getMessage());
            }
            throw e;
        }
        return switch (choice) {
            case ToolChoice.Answer answer -> SpecialistOutput.say(answer.text());
            case ToolChoice.Calls calls ->
                SpecialistOutput.call(calls.calls().stream()
                        .map(call -> new ToolRequest(
                                call.name(),
                                call.arguments().isObject() ? (ObjectNode) call.arguments() : Json.object()))
                        .toList());
        };
    }

    @Override
    public SpecialistOutput second(
            StepScope step, SpecialistInput input, SpecialistOutput first, List<ToolResult> results) {
        List<ToolCall> calls = new ArrayList<>();
        for (int i = 0; i < first.toolCalls().size(); i++) {
            ToolRequest request = first.toolCalls().get(i);
            calls.add(new ToolCall("call_" + (i + 1), request.name(), request.args()));
        }
        List<JsonNode> outcomes = new ArrayList<>();
        for (ToolResult result : results) {
            ObjectNode outcome = Json.object();
            outcome.put("ok", result.ok());
            if (result.ok()) {
                outcome.set("result", result.result());
            } else {
                JsonNode error = result.error().orElseThrow();
                outcome.put("refused", error.path("message").asText());
                outcome.put("reason", error.path("reason").asText());
                outcome.set("details", error.path("details"));
            }
            outcomes.add(outcome);
        }
        SecondPass pass = StepModels.secondPass(
                step,
                model,
                prompt(input),
                offered(input.goal()),
                new ToolChoice.Calls(calls),
                outcomes.subList(0, calls.size()),
                SCHEMA);
        return switch (pass) {
            case SecondPass.ToolsRequested requested ->
                SpecialistOutput.call(requested.tools().stream()
                        .map(name -> new ToolRequest(name, Json.object()))
                        .toList());
            case SecondPass.Answer answer -> answer(answer.value(), results);
        };
    }

    private static SpecialistOutput answer(JsonNode answer, List<ToolResult> results) {
        ObjectNode updates = Json.object();
        for (ToolResult result : results) {
            if (Identities.isVerification(result)) {
                Identities.record(result, updates);
            }
        }
        updates.put("awaiting", answer.path("awaiting").asText("nothing"));
        if (answer.path("done").asBoolean(false)) {
            OfflineSpecialist.done(updates);
        }
        List<MemoryFact> memory = new ArrayList<>();
        answer.path("memory")
                .forEach(f -> memory.add(new MemoryFact(
                        f.path("kind").asText(),
                        f.path("item").asText(),
                        f.path("value").asText())));
        return new SpecialistOutput(answer.path("message").asText(""), List.of(), updates, memory);
    }
}
