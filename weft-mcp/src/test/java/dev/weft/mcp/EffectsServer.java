package dev.weft.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An MCP server written for these tests on the official TypeScript SDK ({@code
 * src/test/resources/mcp/effects-server.mjs}, the SDK installed from npm into {@code target/} the first
 * time): its tools write a line for every call they start to a log, and wait as long as they are
 * asked, so a test can cut a call mid-way and count the effects. Without Node and npm the tests that
 * need it fail; they never pass without the real server.
 */
final class EffectsServer {
    static final List<String> PACKAGES = List.of("@modelcontextprotocol/sdk@1.32.2", "zod@3.25.76");
    private static final Path DIR = Path.of("target", "npm-effects").toAbsolutePath();
    private static final Path SCRIPT = DIR.resolve("effects-server.mjs");

    private EffectsServer() {}

    /** The command serving it over stdio, logging each call it starts to {@code log}. */
    static synchronized List<String> command(Path log) {
        try {
            if (!Files.isDirectory(DIR.resolve("node_modules/@modelcontextprotocol/sdk"))) {
                Files.createDirectories(DIR);
                List<String> install = new java.util.ArrayList<>(
                        List.of("npm", "install", "--no-audit", "--no-fund", "--prefix", DIR.toString()));
                install.addAll(PACKAGES);
                Process npm =
                        new ProcessBuilder(install).redirectErrorStream(true).start();
                String output = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!npm.waitFor(5, TimeUnit.MINUTES) || npm.exitValue() != 0) {
                    throw new AssertionError("npm could not install " + PACKAGES + ":\n" + output);
                }
            }
            try (InputStream script = EffectsServer.class.getResourceAsStream("/mcp/effects-server.mjs")) {
                Files.copy(
                        java.util.Objects.requireNonNull(script, "effects-server.mjs"),
                        SCRIPT,
                        StandardCopyOption.REPLACE_EXISTING);
            }
            return List.of("node", SCRIPT.toString(), log.toString());
        } catch (IOException e) {
            throw new AssertionError("cannot set up the effects MCP server (Node and npm are needed): " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Kills every process of it this JVM started, as a crash would. */
    static void kill() {
        ProcessHandle.current()
                .descendants()
                .filter(p -> p.info().commandLine().orElse("").contains("effects-server"))
                .forEach(ProcessHandle::destroyForcibly);
    }
}
