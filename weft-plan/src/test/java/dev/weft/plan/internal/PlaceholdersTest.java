package dev.weft.plan.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Arguments without any '$' take a shorter path; these pin that it prepares them as the full one does. */
final class PlaceholdersTest {
    private static ObjectNode json(String text) {
        return (ObjectNode) Json.parse(text, "test JSON");
    }

    @Test
    void argumentsWithoutPlaceholdersAreCopiedWithTheAnswersMergedIn() {
        ObjectNode args = json("{\"a\": 1, \"b\": {\"c\": \"text\", \"d\": [1, \"x\"]}}");
        ObjectNode answers = json("{\"b\": {\"e\": true}, \"f\": \"g\"}");

        List<Placeholders.Prepared> prepared =
                Placeholders.prepare("A", args, Map.of(), Set.of(), Set.of("A", "X"), answers, false);

        assertThat(prepared).hasSize(1);
        assertThat(prepared.get(0).stepId()).isEqualTo("A");
        assertThat(prepared.get(0).args())
                .isEqualTo(json("{\"a\": 1, \"b\": {\"c\": \"text\", \"d\": [1, \"x\"], \"e\": true}, \"f\": \"g\"}"))
                .isNotSameAs(args);
        assertThat(args).isEqualTo(json("{\"a\": 1, \"b\": {\"c\": \"text\", \"d\": [1, \"x\"]}}"));
        prepared.get(0).args().put("a", 2);
        assertThat(args.get("a").asInt()).isEqualTo(1);
    }

    @Test
    void aPlaceholderInTheAnswersOfAStepWithoutPlaceholdersIsStillUnresolved() {
        ObjectNode args = json("{\"a\": 1}");
        ObjectNode answers = json("{\"b\": \"$X.value\"}");

        assertThatThrownBy(() -> Placeholders.prepare("A", args, Map.of(), Set.of(), Set.of("A", "X"), answers, false))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_ARGS_UNRESOLVED))
                .hasMessageContaining("$X.value at /b");
        JsonNode lenient = Placeholders.prepare("A", args, Map.of(), Set.of(), Set.of("A", "X"), answers, true)
                .get(0)
                .args();
        assertThat(lenient).isEqualTo(json("{\"a\": 1, \"b\": \"$X.value\"}"));
    }

    @Test
    void aDollarThatIsNoPlaceholderIsLeftAsItIs() {
        ObjectNode args = json("{\"price\": \"5 $\", \"list\": [\"$\", \"US$ 3\"]}");

        List<Placeholders.Prepared> prepared =
                Placeholders.prepare("A", args, Map.of(), Set.of(), Set.of("A", "X"), Json.object(), false);

        assertThat(prepared.get(0).args()).isEqualTo(args);
    }
}
