package dev.weft.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.GraphInvalidException;
import dev.weft.core.NodeSpec;
import org.junit.jupiter.api.Test;

/** {@code "queued": true} on a workflow node: the node runs on a worker when the runner has a step dispatcher. */
final class QueuedNodesTest {
    private static Workflow compile(String node) {
        String json = "{\"id\": \"wf\", \"nodes\": [{\"id\": \"in\", \"type\": \"trigger\"}, " + node
                + "], \"connections\": [{\"source\": \"in\", \"target\": \"work\"}]}";
        return Workflow.compile(WorkflowParser.parse(json, "wf.json"), NodeTypes.standard());
    }

    private static NodeSpec work(Workflow workflow) {
        return workflow.graph().node("work").orElseThrow();
    }

    @Test
    void aNodeThatSaysQueuedIsQueued() {
        Workflow workflow = compile("{\"id\": \"work\", \"type\": \"transform\", \"queued\": true,"
                + " \"config\": {\"output\": {\"n\": \"input.n + 1\"}}}");

        assertThat(work(workflow).queued()).isTrue();
        assertThat(workflow.graph().node("in").orElseThrow().queued()).isFalse();
    }

    @Test
    void queuedMayAlsoBeSaidInTheConfigurationAndIsKeptThereWhenTheDefinitionIsStored() {
        Workflow workflow =
                compile("{\"id\": \"work\", \"type\": \"delay\", \"config\": {\"ms\": 1, \"queued\": true}}");
        Workflow stored = compile("{\"id\": \"work\", \"type\": \"delay\", \"queued\": true, \"config\": {\"ms\": 1}}");

        assertThat(work(workflow).queued()).isTrue();
        Workflow reread =
                Workflow.compile(WorkflowParser.fromJson(stored.definition().toJson(), "stored"), NodeTypes.standard());
        assertThat(work(reread).queued()).isTrue();
    }

    @Test
    void queuedMustBeTrueOrFalse() {
        assertThatThrownBy(() -> compile(
                        "{\"id\": \"work\", \"type\": \"delay\", \"queued\": \"yes\", \"config\":" + " {\"ms\": 1}}"))
                .isInstanceOf(GraphInvalidException.class)
                .hasMessageContaining("wf.json: node 'work': queued must be true or false");
        assertThatThrownBy(() ->
                        compile("{\"id\": \"work\", \"type\": \"delay\", \"config\": {\"ms\": 1, \"queued\": 1}}"))
                .isInstanceOf(GraphInvalidException.class)
                .hasMessageContaining("node 'work': config.queued must be true or false");
    }

    @Test
    void saidTwiceItMustAgree() {
        assertThatThrownBy(() -> compile("{\"id\": \"work\", \"type\": \"delay\", \"queued\": true, \"config\":"
                        + " {\"ms\": 1, \"queued\": false}}"))
                .isInstanceOf(GraphInvalidException.class)
                .hasMessageContaining("say it once");
    }

    @Test
    void anApprovalCannotBeQueuedForItWaitsForAPerson() {
        assertThatThrownBy(() -> compile("{\"id\": \"work\", \"type\": \"approval\", \"queued\": true}"))
                .isInstanceOf(GraphInvalidException.class)
                .hasMessageContaining("node 'work': config.queued cannot be true for a node of type 'approval'");
    }
}
