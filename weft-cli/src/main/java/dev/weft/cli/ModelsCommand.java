package dev.weft.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.llm.Model;
import dev.weft.llm.ModelCheck;
import dev.weft.llm.ModelConfig;
import dev.weft.llm.ModelSettings;
import dev.weft.llm.OfflineModel;
import dev.weft.llm.Provider;
import dev.weft.llm.Tokens;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code weft models check}: which model is configured, and whether one round trip to it works. */
@Command(
        name = "models",
        mixinStandardHelpOptions = true,
        description = "The configured model: which provider and model, and whether it answers.")
public final class ModelsCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final Map<String, String> environment;
    private final TimeSource time;

    /** The command reading the process environment. */
    public ModelsCommand() {
        this(Env.get(), TimeSource.system());
    }

    /** The command reading {@code environment} (tests give their own). */
    ModelsCommand(Map<String, String> environment, TimeSource time) {
        this.environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
        this.time = Objects.requireNonNull(time, "time");
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(
            name = "check",
            mixinStandardHelpOptions = true,
            description = {
                "Says which provider and model are configured (flags, then WEFT_MODEL, WEFT_MODEL_BASE_URL and the"
                        + " provider's key variable, then $WEFT_HOME/config.json), makes one round trip and reports"
                        + " latency and tokens, or the exact reason it could not.",
                "The offline default answers the check with a built-in rule: no network, no key.",
                "Exit status: 0 the model answered, 1 the round trip failed, 2 bad arguments or configuration."
            })
    int check(
            @Option(names = "--model", paramLabel = "PROVIDER:MODEL", description = "e.g. openai:gpt-4o-mini") @Nullable
                    String model,
            @Option(names = "--base-url", paramLabel = "URL", description = "An OpenAI-compatible server or a proxy.")
                    @Nullable
                    String baseUrl,
            @Option(names = "--json", description = "Prints one JSON object.") boolean json) {
        PrintWriter out = spec.commandLine().getOut();
        ModelConfig config;
        Model client;
        try {
            config = ModelConfig.resolve(ModelSettings.flags(model, baseUrl), environment);
            client = Model.create(
                    config, OfflineModel.builder().rule(ModelCheck.PING).build());
        } catch (WeftException e) {
            if (json) {
                out.println(Json.write(configurationError(e)));
                out.flush();
            } else {
                PrintWriter err = spec.commandLine().getErr();
                err.println("weft: " + e.code() + ": " + e.getMessage());
                err.flush();
            }
            return ExitCodes.INVALID;
        }
        ModelCheck.Result result = ModelCheck.run(config, client, time);
        if (json) {
            out.println(Json.write(result.toJson()));
        } else {
            print(out, result);
        }
        out.flush();
        return result.ok() ? ExitCodes.OK : ExitCodes.FAILED;
    }

    private static ObjectNode configurationError(WeftException e) {
        ObjectNode root = Json.object();
        root.putNull("provider");
        root.putNull("model");
        root.putNull("baseUrl");
        root.put("ok", false);
        root.putNull("latencyMs");
        root.set("tokens", Tokens.NONE.toJson());
        ObjectNode error = root.putObject("error");
        error.put("code", e.code().name());
        error.put("message", e.getMessage());
        return root;
    }

    private static void print(PrintWriter out, ModelCheck.Result result) {
        ModelConfig config = result.config();
        out.println("provider: " + config.provider().id());
        out.println("model:    " + config.model());
        out.println("base URL: "
                + config.baseUrl()
                        .orElse(
                                config.provider() == Provider.OFFLINE
                                        ? "none (no network)"
                                        : "the provider's default"));
        if (result.ok()) {
            out.println("ok: answered " + Json.write(result.reply().orElse("")) + " in "
                    + result.latency().toMillis()
                    + " ms; tokens: input " + count(result.tokens().input()) + ", output "
                    + count(result.tokens().output()) + ", cached "
                    + count(result.tokens().cached()));
        } else {
            var error = result.error().orElseThrow();
            out.println(
                    "failed after " + result.latency().toMillis() + " ms: " + error.code() + ": " + error.message());
        }
        if (config.provider() == Provider.OFFLINE) {
            out.println("note: the offline model answers only what its rules cover; for a real model set"
                    + " WEFT_MODEL=provider:model and its key (see docs/models.md)");
        }
    }

    private static String count(OptionalInt value) {
        return value.isPresent() ? Integer.toString(value.getAsInt()) : "not reported";
    }
}
