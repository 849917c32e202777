package dev.weft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.core.TimeSource;
import dev.weft.llm.test.FakeModelServer;
import dev.weft.llm.test.FakeModelServer.Reply;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

final class ModelsCommandTest {
    @TempDir
    Path home;

    private final FakeModelServer server = FakeModelServer.start();
    private final Map<String, String> env = new HashMap<>();

    @AfterEach
    void stopServer() {
        server.close();
    }

    private record Outcome(int exitCode, String out, String err) {
        JsonNode json() {
            return Json.parse(out, "command output");
        }
    }

    private Outcome weft(String... args) {
        env.put("WEFT_HOME", home.toString());
        CommandLine commandLine = new CommandLine(new ModelsCommand(env, TimeSource.system()));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int code = commandLine.execute(args);
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    void theOfflineDefaultPassesTheCheckWithoutNetwork() {
        Outcome outcome = weft("check");

        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.out())
                .contains("provider: offline")
                .contains("model:    rules")
                .contains("ok: answered \"pong\"")
                .contains("for a real model set WEFT_MODEL=provider:model");
    }

    @Test
    void reportsProviderModelLatencyAndTokensAsJson() {
        env.put("OPENAI_API_KEY", "sk-test");
        server.enqueue(Reply.text("pong").withUsage(11, 2, 0));

        Outcome outcome =
                weft("check", "--model", "openai:gpt-4o-mini", "--base-url", server.openAiBaseUrl(), "--json");

        assertThat(outcome.exitCode()).isZero();
        JsonNode json = outcome.json();
        assertThat(json.get("provider").asText()).isEqualTo("openai");
        assertThat(json.get("model").asText()).isEqualTo("gpt-4o-mini");
        assertThat(json.get("baseUrl").asText()).isEqualTo(server.openAiBaseUrl());
        assertThat(json.get("ok").asBoolean()).isTrue();
        assertThat(json.get("latencyMs").isIntegralNumber()).isTrue();
        assertThat(json.get("tokens")).isEqualTo(Json.parse("{\"input\":11,\"output\":2,\"cached\":0}", "t"));
        assertThat(json.get("error").isNull()).isTrue();
        assertThat(server.requests()).hasSize(1);
        assertThat(server.lastRequest().header("Authorization")).contains("Bearer sk-test");
    }

    @Test
    void theEnvironmentChoosesTheModelWhenNoFlagDoes() {
        env.put("WEFT_MODEL", "anthropic:claude-haiku-4-5");
        env.put("WEFT_MODEL_BASE_URL", server.anthropicBaseUrl());
        env.put("ANTHROPIC_API_KEY", "sk-ant");
        server.enqueue(Reply.text("pong"));

        Outcome outcome = weft("check");

        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.out()).contains("provider: anthropic").contains("model:    claude-haiku-4-5");
        assertThat(server.lastRequest().path()).isEqualTo("/v1/messages");
    }

    @Test
    void aRejectedKeyIsAFailedRoundTripWithTheReason() {
        env.put("OPENAI_API_KEY", "sk-wrong");
        server.requireKey("sk-right");

        Outcome outcome =
                weft("check", "--model", "openai:gpt-4o-mini", "--base-url", server.openAiBaseUrl(), "--json");

        assertThat(outcome.exitCode()).isEqualTo(1);
        assertThat(outcome.json().get("ok").asBoolean()).isFalse();
        assertThat(outcome.json().get("error").get("code").asText()).isEqualTo("E_MODEL_UNAVAILABLE");
        assertThat(outcome.json().get("error").get("message").asText()).contains("rejected the API key (401)");
    }

    @Test
    void aServerErrorIsReportedWithoutRetrying() {
        env.put("OPENAI_API_KEY", "sk-test");
        server.enqueue(Reply.error(503, "overloaded"));

        Outcome outcome = weft("check", "--model", "openai:gpt-4o-mini", "--base-url", server.openAiBaseUrl());

        assertThat(outcome.exitCode()).isEqualTo(1);
        assertThat(outcome.out())
                .contains("failed after")
                .contains("E_MODEL_UNAVAILABLE")
                .contains("503");
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void aMissingKeyIsAConfigurationError() {
        Outcome outcome = weft("check", "--model", "openai:gpt-4o-mini");

        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.err()).contains("E_MODEL_UNAVAILABLE").contains("OPENAI_API_KEY");
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void aMalformedModelIsAConfigurationErrorInJsonToo() {
        Outcome outcome = weft("check", "--model", "gpt-4o", "--json");

        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.json().get("ok").asBoolean()).isFalse();
        assertThat(outcome.json().get("error").get("code").asText()).isEqualTo("E_BAD_INPUT");
        assertThat(outcome.json().get("error").get("message").asText()).contains("must be provider:model");
    }
}
