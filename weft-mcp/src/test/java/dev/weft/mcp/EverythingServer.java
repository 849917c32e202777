package dev.weft.mcp;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The MCP reference server {@code @modelcontextprotocol/server-everything}, installed from npm into
 * {@code target/} the first time a test needs it and started with Node. A machine without Node or npm,
 * or without the registry, fails the tests that need it: they never pass without the real server.
 */
final class EverythingServer {
    static final String PACKAGE = "@modelcontextprotocol/server-everything@2026.8.31";
    private static final Path DIR = Path.of("target", "npm-everything").toAbsolutePath();
    private static final Path SCRIPT =
            DIR.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");

    private EverythingServer() {}

    /** The server's script, installed first when it is not yet. */
    static synchronized Path script() {
        if (Files.isRegularFile(SCRIPT)) {
            return SCRIPT;
        }
        try {
            Files.createDirectories(DIR);
            Process npm = new ProcessBuilder(
                            "npm", "install", "--no-audit", "--no-fund", "--prefix", DIR.toString(), PACKAGE)
                    .redirectErrorStream(true)
                    .start();
            String output = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!npm.waitFor(5, TimeUnit.MINUTES) || npm.exitValue() != 0 || !Files.isRegularFile(SCRIPT)) {
                throw new AssertionError("npm could not install " + PACKAGE + " (Node and npm are needed for these"
                        + " tests):\n" + output);
            }
            return SCRIPT;
        } catch (IOException e) {
            throw new AssertionError("cannot run npm to install " + PACKAGE + " (Node and npm are needed): " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted installing " + PACKAGE, e);
        }
    }

    /** The command that serves it over stdio. */
    static List<String> stdioCommand() {
        return List.of("node", script().toString(), "stdio");
    }

    /** A free port on this machine. */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Starts it over Streamable HTTP on {@code port} and waits until it listens. */
    static Process http(int port) {
        try {
            ProcessBuilder builder =
                    new ProcessBuilder("node", script().toString(), "streamableHttp").redirectErrorStream(true);
            builder.environment().put("PORT", Integer.toString(port));
            Process process = builder.start();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline) {
                try {
                    new java.net.Socket("127.0.0.1", port).close();
                    Thread.ofVirtual().start(() -> drain(process));
                    return process;
                } catch (IOException notYet) {
                    if (!process.isAlive()) {
                        throw new AssertionError("server-everything did not start: "
                                + new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                    }
                    Thread.sleep(100);
                }
            }
            process.destroyForcibly();
            throw new AssertionError("server-everything did not listen on port " + port + " within 30 s");
        } catch (IOException e) {
            throw new AssertionError("cannot start node: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static void drain(Process process) {
        try {
            process.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        } catch (IOException ignored) {
            // the process ended
        }
    }

    /** Stops {@code process} and waits for it. */
    static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
