package dev.weft.llm.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.NodeSpec;
import dev.weft.core.WeftException;
import dev.weft.llm.Model;
import dev.weft.llm.ModelNodes;
import dev.weft.llm.ModelUnavailableException;
import dev.weft.llm.Models;
import dev.weft.llm.PromptTemplate;
import dev.weft.workflow.spi.NodeConfig;
import dev.weft.workflow.spi.NodeType;
import java.util.Objects;
import java.util.Set;

/**
 * The workflow node type {@code agent} (seed 003): {@code "config": {"prompt": {"system": TEMPLATE,
 * "user": TEMPLATE}, "schema": JSON_SCHEMA, "model": "provider:model"}}. With {@code schema} its
 * output is the parsed, validated object; without, {@code {"text": reply}}. {@code model} overrides
 * the configured model. The model is resolved when the workflow compiles, so a missing key fails
 * before anything runs. Thread-safe.
 */
public final class AgentNodeType implements NodeType {
    private static final Set<String> FIELDS = Set.of("prompt", "schema", "model");

    private final Models models;

    private AgentNodeType(Models models) {
        this.models = models;
    }

    /** An {@code agent} type whose nodes call {@code models}' default, or the model they name. */
    public static AgentNodeType create(Models models) {
        return new AgentNodeType(Objects.requireNonNull(models, "models"));
    }

    @Override
    public String name() {
        return "agent";
    }

    @Override
    public Set<String> configFields() {
        return FIELDS;
    }

    @Override
    public NodeSpec.Builder create(NodeConfig config) {
        JsonNode prompt = config.required("prompt");
        if (!prompt.isObject()) {
            throw config.problem("prompt", "must be an object {\"system\": TEMPLATE, \"user\": TEMPLATE}");
        }
        for (String field : (Iterable<String>) prompt::fieldNames) {
            if (!field.equals("system") && !field.equals("user")) {
                throw config.problem("prompt." + field, "is not a prompt part (known: system, user)");
            }
        }
        String system = text(config, prompt, "system");
        String user = text(config, prompt, "user");
        PromptTemplate template;
        try {
            template = PromptTemplate.of(system, user);
        } catch (IllegalArgumentException e) {
            throw config.problem("prompt", e.getMessage().replaceFirst("^prompt\\.", "→ "));
        }
        JsonNode schema = config.optional("schema").orElse(null);
        if (schema != null && !schema.isObject()) {
            throw config.problem("schema", "must be a JSON Schema object");
        }
        Model model = model(config);
        try {
            return config.spec(ModelNodes.agentNode(template, model, schema));
        } catch (IllegalArgumentException e) {
            throw config.problem("schema", "is not a valid JSON Schema: " + e.getMessage());
        }
    }

    private Model model(NodeConfig config) {
        String override = config.optionalString("model").orElse(null);
        try {
            return override == null ? models.defaultModel() : models.model(override);
        } catch (ModelUnavailableException e) {
            throw new ModelUnavailableException("node '" + config.nodeId() + "': " + e.getMessage(), e);
        } catch (WeftException e) {
            throw config.problem(override == null ? "model (the configured model)" : "model", e.getMessage());
        }
    }

    private static String text(NodeConfig config, JsonNode prompt, String field) {
        JsonNode value = prompt.get(field);
        if (value == null || value.isNull()) {
            return "";
        }
        if (!value.isTextual()) {
            throw config.problem("prompt." + field, "must be a string (a Mustache template)");
        }
        return value.asText();
    }
}
