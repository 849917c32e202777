package dev.weft.core;

import static dev.weft.core.Nodes.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

final class SchemaFitTest {
    private static List<String> problems(String source, String target) {
        return SchemaFit.problems(json(source), json(target), "the value");
    }

    @Test
    void anObjectWithEveryRequiredPropertyFits() {
        assertThat(
                        problems(
                                "{\"type\": \"object\", \"properties\": {\"emails\": {\"type\": \"array\"}, \"n\": {\"type\": \"integer\"}},"
                                        + " \"required\": [\"emails\", \"n\"]}",
                                "{\"type\": \"object\", \"properties\": {\"emails\": {\"type\": \"array\"}}, \"required\": [\"emails\"]}"))
                .isEmpty();
    }

    @Test
    void aMissingOrOptionalRequiredPropertyDoesNotFit() {
        assertThat(problems(
                        "{\"type\": \"object\", \"properties\": {\"mails\": {\"type\": \"array\"}}, \"required\": [\"mails\"]}",
                        "{\"type\": \"object\", \"required\": [\"emails\"]}"))
                .containsExactly("the value has no property 'emails', which is required");
        assertThat(problems(
                        "{\"type\": \"object\", \"properties\": {\"emails\": {\"type\": \"array\"}}}",
                        "{\"type\": \"object\", \"required\": [\"emails\"]}"))
                .containsExactly("the value may lack property 'emails', which is required");
    }

    @Test
    void typesMustFitAndAnIntegerIsANumber() {
        assertThat(problems("{\"type\": \"integer\"}", "{\"type\": \"number\"}"))
                .isEmpty();
        assertThat(problems("{\"type\": \"number\"}", "{\"type\": \"integer\"}"))
                .containsExactly("the value may be a number, where integer is required");
        assertThat(problems("{\"type\": [\"string\", \"null\"]}", "{\"type\": \"string\"}"))
                .containsExactly("the value may be a null, where string is required");
        assertThat(problems("{\"type\": \"string\"}", "{\"type\": [\"string\", \"null\"]}"))
                .isEmpty();
    }

    @Test
    void nestedObjectsAndArrayItemsAreCheckedWithTheirPath() {
        assertThat(problems(
                        "{\"type\": \"object\", \"properties\": {\"emails\": {\"type\": \"array\", \"items\": {\"type\":"
                                + " \"object\", \"properties\": {\"subject\": {\"type\": \"integer\"}}}}}, \"required\": [\"emails\"]}",
                        "{\"type\": \"object\", \"properties\": {\"emails\": {\"type\": \"array\", \"items\": {\"type\":"
                                + " \"object\", \"properties\": {\"subject\": {\"type\": \"string\"}}}}}}"))
                .containsExactly("the value.emails[*].subject may be an integer, where string is required");
    }

    @Test
    void aClosedInputRefusesPropertiesItDoesNotKnow() {
        assertThat(problems(
                        "{\"type\": \"object\", \"properties\": {\"a\": {}, \"b\": {}}}",
                        "{\"type\": \"object\", \"properties\": {\"a\": {}}, \"additionalProperties\": false}"))
                .containsExactly("the value may have property 'b', which is not allowed");
    }

    @Test
    void enumValuesMustBeASubset() {
        assertThat(problems("{\"enum\": [\"a\", \"b\"]}", "{\"enum\": [\"a\", \"b\", \"c\"]}"))
                .isEmpty();
        assertThat(problems("{\"const\": \"d\"}", "{\"enum\": [\"a\", \"b\"]}"))
                .containsExactly("the value may be \"d\", which is not one of [\"a\", \"b\"]");
        assertThat(problems("{\"type\": \"string\"}", "{\"enum\": [\"a\"]}"))
                .as("it could be 'a'")
                .isEmpty();
    }

    @Test
    void whatItDoesNotUnderstandOrWhatSaysTooLittleIsAccepted() {
        assertThat(problems("{\"$ref\": \"#/$defs/x\"}", "{\"type\": \"object\", \"required\": [\"a\"]}"))
                .isEmpty();
        assertThat(problems("{\"anyOf\": [{\"type\": \"string\"}]}", "{\"type\": \"integer\"}"))
                .isEmpty();
        assertThat(problems("{\"type\": \"object\"}", "{\"type\": \"object\", \"required\": [\"a\"]}"))
                .isEmpty();
        assertThat(problems("{}", "{\"type\": \"integer\"}")).isEmpty();
        assertThat(problems(
                        "{\"type\": \"string\", \"format\": \"date\"}", "{\"type\": \"string\", \"pattern\": \"x\"}"))
                .isEmpty();
    }
}
