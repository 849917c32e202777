package dev.weft.redis.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Redis server for tests: Debian's {@code redis-server} (which {@code .ci/run} installs),
 * started on a free port with a directory of its own and an append-only file written at every
 * command, so that killing it and starting it again loses nothing it acknowledged. A test that needs
 * it fails, rather than skips, when it cannot start. Not thread-safe: one test drives it.
 */
public final class RedisServer implements AutoCloseable {
    private final Path dir;
    private final int port;
    private Process process;

    private RedisServer(Path dir, int port) {
        this.dir = dir;
        this.port = port;
    }

    /** Starts a new server on a free port, in a new directory. */
    public static RedisServer start() {
        try {
            RedisServer server = new RedisServer(Files.createTempDirectory("weft-redis"), freePort());
            server.restart();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return port;
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** Starts the server again (after {@link #kill}), on the same port, with the data it had. */
    public void restart() {
        String binary = binary();
        try {
            process = new ProcessBuilder(List.of(
                            binary,
                            "--port",
                            Integer.toString(port),
                            "--bind",
                            "127.0.0.1",
                            "--dir",
                            dir.toString(),
                            "--appendonly",
                            "yes",
                            "--appendfsync",
                            "always",
                            "--save",
                            "",
                            "--daemonize",
                            "no",
                            "--protected-mode",
                            "no"))
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("redis.log").toFile())
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + binary + ": " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited at once: " + log());
            }
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.getOutputStream().write("PING\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                byte[] answer = new byte[7];
                int read = socket.getInputStream().read(answer);
                if (read > 0
                        && new String(answer, 0, read, java.nio.charset.StandardCharsets.US_ASCII)
                                .startsWith("+PONG")) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet, or still loading its data
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for redis-server", e);
            }
        }
        throw new IllegalStateException("redis-server did not answer on port " + port + " in 20 s: " + log());
    }

    /** Kills the server at once (SIGKILL), as a crash would. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String log() {
        try {
            return Files.readString(dir.resolve("redis.log"));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    private static String binary() {
        for (String candidate : List.of("/usr/bin/redis-server", "/usr/local/bin/redis-server")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        String path = System.getenv().getOrDefault("PATH", "");
        for (String entry : path.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(entry, "redis-server");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        throw new IllegalStateException("redis-server is not installed; install Debian's: apt-get install -y"
                + " redis-server (.ci/run does when it is missing)");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        if (process != null) {
            kill();
        }
    }
}
