package dev.weft.server;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.Json;
import dev.weft.core.RunJson;
import dev.weft.core.RunRequest;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.workflow.Workflow;
import dev.weft.workflow.WorkflowParser;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code /api/workflows}: check a workflow, upload it under its id (the caller's own), list them, and
 * run one — waiting for its result, or detached, to be followed through its run's events.
 */
final class WorkflowsApi {
    private final Backend backend;
    private final StoredWorkflows stored;

    WorkflowsApi(Backend backend, StoredWorkflows stored) {
        this.backend = backend;
        this.stored = stored;
    }

    void register(Routes routes) {
        routes.get("/api/workflows", this::list);
        routes.post("/api/workflows", this::upload);
        routes.post("/api/workflows/check", this::check);
        routes.get("/api/workflows/{id}", this::show);
        routes.post("/api/workflows/{id}/runs", this::run);
    }

    /** A workflow in the request body, compiled: {@code E_GRAPH_INVALID} lists every problem. */
    private Workflow compile(ServerRequest req) {
        JsonNode body = Http.tree(req);
        if (!body.isObject()) {
            throw new GraphInvalidException("a workflow is a JSON object with \"id\", \"nodes\" and \"connections\"");
        }
        return Workflow.compile(WorkflowParser.fromJson(body, "the request body"), backend.nodeTypes());
    }

    private void check(ServerRequest req, ServerResponse res) {
        Caller.of(req);
        ObjectNode answer = Json.object();
        try {
            Workflow workflow = compile(req);
            answer.put("valid", true);
            answer.put("id", workflow.id());
            answer.put("nodes", workflow.definition().nodes().size());
        } catch (GraphInvalidException e) {
            answer.put("valid", false);
            ArrayNode problems = answer.putArray("problems");
            e.problems().forEach(problems::add);
        }
        Http.ok(res, answer);
    }

    private void upload(ServerRequest req, ServerResponse res) {
        Caller caller = Caller.of(req);
        Workflow workflow = compile(req);
        boolean created = stored.put(
                caller.user(),
                workflow.id(),
                workflow.definition().toJson(),
                backend.runner().time().now());
        ObjectNode answer = Json.object();
        answer.put("id", workflow.id());
        answer.put("created", created);
        answer.put("nodes", workflow.definition().nodes().size());
        Http.json(res, created ? 201 : 200, answer);
    }

    private void list(ServerRequest req, ServerResponse res) {
        Caller caller = Caller.of(req);
        ObjectNode answer = Json.object();
        ArrayNode items = answer.putArray("workflows");
        for (StoredWorkflows.Stored workflow : stored.list(caller.user())) {
            items.addObject()
                    .put("id", workflow.id())
                    .put("nodes", workflow.definition().path("nodes").size())
                    .put("updatedAt", workflow.updatedAt().toString());
        }
        Http.ok(res, answer);
    }

    private void show(ServerRequest req, ServerResponse res) {
        StoredWorkflows.Stored workflow = stored.get(Caller.of(req).user(), id(req));
        ObjectNode answer = Json.object();
        answer.put("id", workflow.id());
        answer.put("updatedAt", workflow.updatedAt().toString());
        answer.set("definition", workflow.definition());
        Http.ok(res, answer);
    }

    /** A run of a stored workflow: its input, variables, and whether to answer before it ends. */
    record RunBody(
            @Nullable JsonNode input,
            @Nullable Map<String, JsonNode> variables,
            @JsonProperty("wait") @Nullable Boolean waitForEnd) {}

    private void run(ServerRequest req, ServerResponse res) {
        Caller caller = Caller.of(req);
        StoredWorkflows.Stored definition = stored.get(caller.user(), id(req));
        RunBody body = Http.body(req, RunBody.class);
        Workflow workflow = Workflow.compile(
                WorkflowParser.fromJson(definition.definition(), "workflow " + definition.id()), backend.nodeTypes());
        RunRequest.Builder request =
                RunRequest.builder().source(workflow.definition().toJson()).user(caller.user());
        if (body.input() != null) {
            request.input(body.input());
        }
        if (body.variables() != null) {
            body.variables().forEach(request::variable);
        }
        if (body.waitForEnd() == null || body.waitForEnd()) {
            Http.ok(res, RunJson.of(backend.runner().run(workflow.graph(), request.build())));
            return;
        }
        Runner.RunHandle handle = backend.runner().start(workflow.graph(), request.build());
        backend.detached().add(handle.result());
        handle.result().whenComplete((result, failure) -> backend.detached().remove(handle.result()));
        ObjectNode answer = Json.object();
        answer.put("runId", handle.runId());
        answer.put("events", "/api/runs/" + handle.runId() + "/events");
        Http.json(res, 202, answer);
    }

    private static String id(ServerRequest req) {
        String id = req.path().pathParameters().get("id");
        if (id.isBlank()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "a workflow id is required");
        }
        return id;
    }
}
