package dev.weft.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.NodeResult;
import dev.weft.core.NodeSpec;
import dev.weft.workflow.spi.NodeConfig;
import dev.weft.workflow.spi.NodeType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * A test node with a side effect, made through {@code context.once}: every call is logged to {@code
 * calls} (key and process id), and the effect itself — a line in {@code marks} — honours the
 * idempotency key as a well-behaved external system does, so a test can tell how often the runtime
 * made the call and whether it always passed the same key.
 */
final class MarkNodeType implements NodeType {
    private final Path marks;
    private final Path calls;

    MarkNodeType(Path marks, Path calls) {
        this.marks = marks;
        this.calls = calls;
    }

    @Override
    public String name() {
        return "mark";
    }

    @Override
    public Set<String> configFields() {
        return Set.of();
    }

    @Override
    public NodeSpec.Builder create(NodeConfig config) {
        return config.spec(context -> NodeResult.output(context.once("mark", () -> {
            String key = context.idempotencyKey();
            try {
                Files.writeString(
                        calls,
                        key + " " + ProcessHandle.current().pid() + "\n",
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND,
                        StandardOpenOption.SYNC);
                if (!Files.readAllLines(marks).contains(key)) {
                    Files.writeString(
                            marks,
                            key + "\n",
                            StandardOpenOption.CREATE,
                            StandardOpenOption.APPEND,
                            StandardOpenOption.SYNC);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            ObjectNode out = Json.object();
            out.put("key", key);
            return out;
        })));
    }
}
