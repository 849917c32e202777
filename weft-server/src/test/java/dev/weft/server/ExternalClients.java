package dev.weft.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Clients nobody here wrote, run as processes: curl, and the official OpenAI client from npm (installed
 * under {@code target/node-openai} on first use, so a fresh clone needs only Node and npm). A client that
 * cannot be run fails the test: it is not skipped.
 */
final class ExternalClients {
    /**
     * The OpenAI client for Node: 6.x is the newest line that runs on Node 20 (7.x needs Node 22). Like
     * the Python SDK, it sends {@code Accept: application/json} on every request, streamed ones too.
     */
    static final String OPENAI_NPM = "openai@6.49.0";

    /**
     * The A2A JavaScript SDK: the 0.3 line speaks A2A protocol 0.3 ({@code message/send}, {@code
     * tasks/get}, …), the version the server and the A2A Java SDK's types speak.
     */
    static final String A2A_NPM = "@a2a-js/sdk@0.3.14";

    private static final Path NODE_DIR = Path.of("target", "node-openai").toAbsolutePath();

    private static final Path A2A_DIR = Path.of("target", "node-a2a").toAbsolutePath();

    private ExternalClients() {}

    /** What a process printed and how it ended. */
    record Output(int exit, String stdout, String stderr) {
        JsonNode json() {
            String last = stdout.strip();
            int line = last.lastIndexOf('\n');
            return Json.parse(line < 0 ? last : last.substring(line + 1), "the client's output");
        }
    }

    /**
     * The OpenAI npm client's answer to {@code text} from {@code model} at {@code base} ({@code .../v1})
     * as the owner of {@code key}: {@code {content, finish, usage, chunks, pieces}}, or {@code {error}}.
     */
    static JsonNode openAiNode(URI base, String key, boolean stream, String model, String text) {
        Path script = installOpenAiNode();
        Output out = run(
                List.of("node", script.toString(), stream ? "stream" : "plain", model, text),
                Map.of("WEFT_BASE", base.resolve("v1").toString(), "WEFT_KEY", key),
                NODE_DIR);
        if (out.stdout().isBlank()) {
            throw new AssertionError(
                    "the OpenAI npm client printed nothing (exit " + out.exit() + "): " + out.stderr());
        }
        return out.json();
    }

    /**
     * What the OpenAI npm client made of a conversation with {@code model} over {@code /v1/responses}
     * (openai-responses.mjs), as the owner of {@code key}, with {@code otherKey} another user's.
     */
    static JsonNode openAiResponses(URI base, String key, String otherKey, String model) {
        installOpenAiNode();
        return script(
                NODE_DIR,
                "openai-responses.mjs",
                List.of(model),
                Map.of("WEFT_BASE", base.resolve("v1").toString(), "WEFT_KEY", key, "WEFT_OTHER_KEY", otherKey));
    }

    /**
     * What the A2A JavaScript SDK made of a conversation with the server's agents (a2a-client.mjs), as
     * the owner of {@code key}, with {@code otherKey} another user's.
     */
    static JsonNode a2aNode(URI base, String key, String otherKey) {
        install(A2A_DIR, A2A_NPM, "node_modules/@a2a-js/sdk/package.json");
        return script(
                A2A_DIR,
                "a2a-client.mjs",
                List.of(),
                Map.of("WEFT_BASE", base.toString(), "WEFT_KEY", key, "WEFT_OTHER_KEY", otherKey));
    }

    private static JsonNode script(Path dir, String script, List<String> args, Map<String, String> env) {
        Path copy = dir.resolve(script);
        try {
            Files.copy(Path.of("src/test/node", script), copy, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> command = new ArrayList<>(List.of("node", copy.toString()));
        command.addAll(args);
        Output out = run(command, env, dir);
        if (out.stdout().isBlank()) {
            throw new AssertionError(script + " printed nothing (exit " + out.exit() + "): " + out.stderr());
        }
        return out.json();
    }

    /** Installs {@code npmPackage} under {@code dir} unless the version asked for is there. */
    private static synchronized void install(Path dir, String npmPackage, String packageJson) {
        Path installed = dir.resolve(packageJson);
        String version = npmPackage.substring(npmPackage.lastIndexOf('@') + 1);
        try {
            Files.createDirectories(dir);
            if (!Files.exists(installed) || !Files.readString(installed).contains("\"version\": \"" + version + "\"")) {
                Output npm = run(
                        List.of("npm", "install", "--no-audit", "--no-fund", "--no-save", "--prefix", ".", npmPackage),
                        Map.of(),
                        dir);
                if (npm.exit() != 0 || !Files.exists(installed)) {
                    throw new AssertionError("npm install " + npmPackage + " failed (exit " + npm.exit() + "): "
                            + npm.stderr() + npm.stdout());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** curl's answer (its body, {@code -N}: nothing buffered) to {@code args}, which follow its own. */
    static Output curl(List<String> args) {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "-N", "--max-time", "60"));
        command.addAll(args);
        Output out = run(command, Map.of(), Path.of(".").toAbsolutePath());
        if (out.exit() != 0) {
            throw new AssertionError("curl failed (exit " + out.exit() + "): " + out.stderr());
        }
        return out;
    }

    private static synchronized Path installOpenAiNode() {
        Path installed = NODE_DIR.resolve("node_modules/openai/package.json");
        String version = OPENAI_NPM.substring(OPENAI_NPM.indexOf('@') + 1);
        try {
            Files.createDirectories(NODE_DIR);
            if (!Files.exists(installed) || !Files.readString(installed).contains("\"version\": \"" + version + "\"")) {
                Output npm = run(
                        List.of("npm", "install", "--no-audit", "--no-fund", "--no-save", "--prefix", ".", OPENAI_NPM),
                        Map.of(),
                        NODE_DIR);
                if (npm.exit() != 0 || !Files.exists(installed)) {
                    throw new AssertionError("npm install " + OPENAI_NPM + " failed (exit " + npm.exit() + "): "
                            + npm.stderr() + npm.stdout());
                }
            }
            Path script = NODE_DIR.resolve("openai-chat.mjs");
            Files.copy(Path.of("src/test/node/openai-chat.mjs"), script, StandardCopyOption.REPLACE_EXISTING);
            return script;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Output run(List<String> command, Map<String, String> env, Path dir) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
        builder.environment().putAll(env);
        try {
            Path err = Files.createTempFile("client", ".err");
            builder.redirectError(err.toFile());
            Process process;
            try {
                process = builder.start();
            } catch (IOException e) {
                throw new AssertionError(
                        "cannot run " + command.get(0) + " (install it: .ci/run does on CI): " + e.getMessage(), e);
            }
            process.getOutputStream().close();
            String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(180, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(command.get(0) + " did not finish in 180 s");
            }
            String stderr = Files.readString(err);
            Files.delete(err);
            return new Output(process.exitValue(), stdout, stderr);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
