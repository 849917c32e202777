package dev.weft.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import org.junit.jupiter.api.Test;

/** Seed 001's input table, written exactly: the header, one row per argument, cells escaped. */
final class InputTableTest {
    private static final Tool TOOL = Tool.json(
                    "notes.add", "adds a note", Json.object(), Json.object(), (args, context) -> Json.object())
            .build();

    @Test
    void writesAHeaderAndOneEscapedRowPerArgument() {
        ObjectNode args = (ObjectNode) Json.parse(
                "{\"title\": \"Buy | milk\\nand bread\", \"n\": 3, \"tags\": [\"a|b\"], \"odd|key\": null}", "args");

        assertThat(StepNode.inputTable(TOOL, args))
                .isEqualTo("**notes.add**\n\n| Parameter | Value |\n|---|---|\n"
                        + "| title | Buy \\| milk and bread |\n"
                        + "| n | 3 |\n"
                        + "| tags | [\"a\\|b\"] |\n"
                        + "| odd\\|key | null |\n");
    }

    @Test
    void writesOnlyTheHeaderForNoArguments() {
        assertThat(StepNode.inputTable(TOOL, Json.object()))
                .isEqualTo("**notes.add**\n\n| Parameter | Value |\n|---|---|\n");
    }
}
