package dev.weft.cli;

import dev.weft.core.Durability;
import dev.weft.core.RunRequest;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import dev.weft.workflow.NodeTypes;
import dev.weft.workflow.Workflow;
import dev.weft.workflow.WorkflowParser;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The process {@code CrashRecoveryIT} kills: runs the crash workflow in a store, printing "started"
 * once its run exists. Arguments: database URL, run id, workflow file, marks file, calls file, durability.
 */
public final class CrashWorker {
    private CrashWorker() {}

    public static void main(String[] args) {
        RunStore store = Stores.open(Optional.of(args[0]), Map.of());
        Workflow workflow = Workflow.compile(
                WorkflowParser.read(Path.of(args[2])),
                NodeTypes.standard().with(new MarkNodeType(Path.of(args[3]), Path.of(args[4]))));
        Runner runner = Runner.builder()
                .store(store)
                .durability(Durability.valueOf(args[5]))
                .listener(event -> {
                    if (event.type().equals("run.started")) {
                        System.out.println("started");
                        System.out.flush();
                    }
                })
                .build();
        runner.run(
                workflow.graph(),
                RunRequest.builder()
                        .runId(args[1])
                        .source(workflow.definition().toJson())
                        .build());
        System.out.println("finished");
        store.close();
    }
}
