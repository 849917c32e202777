package dev.weft.mailflow;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.Json;
import dev.weft.workflow.NodeTypes;
import dev.weft.workflow.Workflow;
import dev.weft.workflow.WorkflowDefinition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Seed 003's connection resolver: a template's rows (nodes, tools, connections with their handles,
 * variables) become one workflow definition, compiled into a Weft graph before anything runs. Tools
 * are nodes of their tool type; a tool type listed as a node, or a node type listed as a tool, is an
 * error, as is every rule the graph compiler checks. Stateless.
 */
public final class ConnectionResolver {
    private ConnectionResolver() {}

    /** The workflow definition of {@code template} under graph id {@code graphId}. */
    public static WorkflowDefinition definition(Template template, String graphId) {
        List<WorkflowDefinition.NodeDefinition> nodes = new ArrayList<>();
        for (Template.Item node : template.nodes()) {
            nodes.add(new WorkflowDefinition.NodeDefinition(node.id(), node.type(), node.name(), node.config()));
        }
        for (Template.Item tool : template.tools()) {
            nodes.add(new WorkflowDefinition.NodeDefinition(tool.id(), tool.type(), tool.name(), tool.config()));
        }
        List<WorkflowDefinition.ConnectionDefinition> links = new ArrayList<>();
        for (Template.Connection link : template.connections()) {
            links.add(new WorkflowDefinition.ConnectionDefinition(link.source(), link.target(), link.sourceHandle()));
        }
        return new WorkflowDefinition(graphId, template.variables(), nodes, links);
    }

    /**
     * Compiles {@code template} with {@code types}, whose tool types are {@code tools}.
     *
     * @throws GraphInvalidException naming every node and rule that fails
     */
    public static Workflow compile(Template template, String graphId, NodeTypes types, Set<String> tools) {
        List<String> problems = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (Template.Item node : template.nodes()) {
            if (!ids.add(node.id())) {
                problems.add("node '" + node.id() + "': a second node or tool has this id");
            }
            if (tools.contains(node.type())) {
                problems.add("node '" + node.id() + "': '" + node.type() + "' is a tool type; list it under \"tools\"");
            }
        }
        for (Template.Item tool : template.tools()) {
            if (!ids.add(tool.id())) {
                problems.add("tool '" + tool.id() + "': a second node or tool has this id");
            }
            if (!tools.contains(tool.type())) {
                problems.add("tool '" + tool.id() + "': unknown tool type '" + tool.type() + "' (known: "
                        + String.join(", ", tools.stream().sorted().toList()) + ")");
            }
        }
        if (!problems.isEmpty()) {
            throw new GraphInvalidException(problems);
        }
        return Workflow.compile(definition(template, graphId), types);
    }

    /** The source a run keeps to rebuild its graph in another process: the venue, the template and its definition. */
    static ObjectNode source(Venue venue, MailflowData.StoredTemplate stored, String graphId) {
        ObjectNode source = Json.object();
        ObjectNode mailflow = source.putObject("mailflow");
        mailflow.put("venue", venue.id());
        mailflow.put("organization", venue.organization());
        mailflow.put("template", stored.template().id());
        mailflow.put("version", stored.version());
        source.set("workflow", definition(stored.template(), graphId).toJson());
        return source;
    }
}
