package dev.weft.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ShortNode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** JSON text written and read without Jackson where it can be: the same text and values as Jackson's. */
final class JsonTextTest {
    @ParameterizedTest
    @ValueSource(
            strings = {
                "null",
                "true",
                "false",
                "0",
                "-7",
                "2147483647",
                "-2147483648",
                "9223372036854775807",
                "1.5",
                "0.10",
                "1e-300",
                "123456789012345678901234567890",
                "\"\"",
                "\"plain\"",
                "\"quote \\\" backslash \\\\ slash /\"",
                "\"controls \\n \\r \\t \\b \\f \\u0000 \\u001F \\u007F\"",
                "\"שלום ✓ \\uD83D\\uDE00\"",
                "{}",
                "[]",
                "{\"a\":1,\"b\":[true,null,{\"c\":\"d\"}],\"e\":{}}",
                "[1,-2,3.25,\"x\",[[]],{\"k\\\"ey\":0}]",
                "{\"mixed\":[1,1.5,{\"deep\":[9223372036854775807]}]}"
            })
    void writesWhatJacksonWrites(String text) throws Exception {
        JsonNode node = Json.mapper().readTree(text);

        assertThat(JsonText.write(node)).isEqualTo(Json.mapper().writeValueAsString(node));
        assertThat(JsonText.read(JsonText.write(node), "value")).isEqualTo(node);
    }

    @Test
    void writesNumberKindsJacksonDoes() throws Exception {
        for (JsonNode node : new JsonNode[] {
            ShortNode.valueOf((short) 7),
            LongNode.valueOf(-5),
            DoubleNode.valueOf(0.1),
            DoubleNode.valueOf(Double.NaN),
            BigIntegerNode.valueOf(BigInteger.TEN.pow(30))
        }) {
            assertThat(JsonText.write(node)).isEqualTo(Json.mapper().writeValueAsString(node));
        }
    }

    @Test
    void writesAMapAsJacksonWritesTheObject() throws Exception {
        Map<String, JsonNode> map = new LinkedHashMap<>();
        map.put("n", Json.mapper().readTree("1"));
        map.put("s\n", Json.mapper().readTree("\"v\""));
        map.put("f", Json.mapper().readTree("2.5"));

        assertThat(JsonText.writeMap(map))
                .isEqualTo(Json.mapper().writeValueAsString(Json.object().setAll(map)));
        assertThat(JsonText.writeMap(Map.of())).isEqualTo("{}");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "null",
                "true",
                "false",
                "{}",
                "0",
                "-0",
                "7",
                "-12",
                "123456789",
                "1234567890",
                "-999999999",
                "1e3",
                " 5",
                "5 ",
                "[]",
                "2147483648"
            })
    void readsWhatJacksonReads(String text) throws Exception {
        assertThat(JsonText.read(text, "value")).isEqualTo(Json.mapper().readTree(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"007", "01", "-", "-01", "1 2", "nul"})
    void rejectsWhatJacksonRejects(String text) {
        assertThatThrownBy(() -> JsonText.read(text, "value"))
                .isInstanceOf(WeftException.class)
                .hasMessageContaining("not valid JSON");
    }
}
