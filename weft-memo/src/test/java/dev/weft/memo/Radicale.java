package dev.weft.memo;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's Radicale, a real CalDAV server, started on a free port of the loopback with its own storage
 * folder and a file of users and passwords (plain, as Radicale's htpasswd reads it); and the requests
 * another calendar client (a phone) makes to it. A test that cannot start it fails: {@code .ci/run}
 * installs the package. Not thread-safe.
 */
public final class Radicale implements AutoCloseable {
    private static final Duration START_WITHIN = Duration.ofSeconds(20);
    private static final Pattern HREF = Pattern.compile("<(?:[A-Za-z]+:)?href>([^<]+\\.ics)</(?:[A-Za-z]+:)?href>");

    private final Path dir;
    private final Map<String, String> users;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private int port;
    private Process process;

    private Radicale(Path dir, Map<String, String> users) {
        this.dir = dir;
        this.users = new LinkedHashMap<>(users);
    }

    /**
     * Radicale serving {@code users} (login → password) from {@code dir}.
     *
     * @throws AssertionError when it is not installed or does not start
     */
    public static Radicale start(Path dir, Map<String, String> users) {
        Radicale radicale = new Radicale(dir, users);
        radicale.port = freePort();
        radicale.launch();
        return radicale;
    }

    /** The server's root, e.g. {@code http://127.0.0.1:41234/}. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + port + "/");
    }

    /** The URL of {@code user}'s calendar {@code name}. */
    public URI calendar(String user, String name) {
        return url().resolve("/" + user + "/" + name + "/");
    }

    /** Stops the server (its data stays): a server that went down. */
    public void stop() {
        if (process != null) {
            process.destroy();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
    }

    /** Starts it again on the same port, with the same data. */
    public void restart() {
        stop();
        launch();
    }

    @Override
    public void close() {
        stop();
    }

    /** Gives {@code user} a new password (Radicale reads its users' file at each login). */
    public void password(String user, String password) {
        users.put(user, password);
        writeUsers();
    }

    /** Makes {@code user}'s calendar {@code name} as another client would. */
    public void makeCalendar(String user, String name) {
        String body = "<?xml version=\"1.0\"?><c:mkcalendar xmlns:d=\"DAV:\" xmlns:c=\"urn:ietf:params:xml:ns:caldav\">"
                + "<d:set><d:prop><d:displayname>" + name + "</d:displayname></d:prop></d:set></c:mkcalendar>";
        expect(send(user, "MKCALENDAR", calendar(user, name.toLowerCase(java.util.Locale.ROOT)), body, Map.of()), 201);
    }

    /** Writes {@code ics} as {@code file} in {@code user}'s calendar {@code name}, over whatever is there; its ETag. */
    public String put(String user, String name, String file, String ics) {
        HttpResponse<String> response = send(
                user,
                "PUT",
                calendar(user, name).resolve(file),
                ics,
                Map.of("Content-Type", "text/calendar; charset=utf-8"));
        expect(response, 201, 204);
        return response.headers().firstValue("ETag").orElse("");
    }

    /** Deletes {@code file} from {@code user}'s calendar {@code name}. */
    public void delete(String user, String name, String file) {
        expect(send(user, "DELETE", calendar(user, name).resolve(file), "", Map.of()), 200, 204);
    }

    /** The text of {@code file} in {@code user}'s calendar {@code name}, if it is there. */
    public Optional<String> get(String user, String name, String file) {
        HttpResponse<String> response = send(user, "GET", calendar(user, name).resolve(file), "", Map.of());
        return response.statusCode() == 200 ? Optional.of(response.body()) : Optional.empty();
    }

    /** The texts of every object in {@code user}'s calendar {@code name}, by file name. */
    public Map<String, String> objects(String user, String name) {
        HttpResponse<String> listing = send(
                user,
                "PROPFIND",
                calendar(user, name),
                "<?xml version=\"1.0\"?><d:propfind xmlns:d=\"DAV:\"><d:prop><d:getetag/></d:prop></d:propfind>",
                Map.of("Depth", "1"));
        expect(listing, 207);
        List<String> files = new ArrayList<>();
        Matcher href = HREF.matcher(listing.body());
        while (href.find()) {
            String path = href.group(1);
            files.add(path.substring(path.lastIndexOf('/') + 1));
        }
        Map<String, String> texts = new LinkedHashMap<>();
        for (String file : files) {
            get(user, name, file).ifPresent(text -> texts.put(file, text));
        }
        return texts;
    }

    private HttpResponse<String> send(String user, String method, URI url, String body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(url)
                .timeout(Duration.ofSeconds(10))
                .header(
                        "Authorization",
                        "Basic "
                                + Base64.getEncoder()
                                        .encodeToString(
                                                (user + ":" + users.get(user)).getBytes(StandardCharsets.UTF_8)))
                .method(
                        method,
                        body.isEmpty()
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        headers.forEach(request::header);
        try {
            try {
                return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            } catch (IOException stale) {
                // Radicale answers HTTP/1.0 and closes each connection; the pool may not have seen it yet
                return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new AssertionError("Radicale did not answer " + method + " " + url + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static void expect(HttpResponse<String> response, int... statuses) {
        for (int status : statuses) {
            if (response.statusCode() == status) {
                return;
            }
        }
        throw new AssertionError("Radicale answered " + response.request().method() + " "
                + response.request().uri() + " with " + response.statusCode() + ": " + response.body());
    }

    private void launch() {
        try {
            Files.createDirectories(dir.resolve("collections"));
            StringBuilder file = new StringBuilder();
            users.forEach((login, password) ->
                    file.append(login).append(':').append(password).append('\n'));
            Files.writeString(dir.resolve("users"), file);
            Files.writeString(dir.resolve("config"), "");
            process = new ProcessBuilder(
                            "radicale",
                            "--config",
                            dir.resolve("config").toString(),
                            "--server-hosts",
                            "127.0.0.1:" + port,
                            "--storage-filesystem-folder",
                            dir.resolve("collections").toString(),
                            "--auth-type",
                            "htpasswd",
                            "--auth-htpasswd-filename",
                            dir.resolve("users").toString(),
                            "--auth-htpasswd-encryption",
                            "plain",
                            "--rights-type",
                            "owner_only",
                            "--logging-level",
                            "warning")
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("radicale.log").toFile())
                    .start();
        } catch (IOException e) {
            throw new AssertionError(
                    "cannot start Debian's radicale (apt-get install radicale; .ci/run installs it): " + e.getMessage(),
                    e);
        }
        long deadline = System.nanoTime() + START_WITHIN.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError("radicale exited with " + process.exitValue() + ": " + log());
            }
            try (Socket probe = new Socket("127.0.0.1", port)) {
                if (probe.isConnected()) {
                    return;
                }
            } catch (IOException notYet) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError(e);
                }
            }
        }
        stop();
        throw new AssertionError("radicale did not listen on port " + port + " within " + START_WITHIN + ": " + log());
    }

    private void writeUsers() {
        StringBuilder file = new StringBuilder();
        users.forEach((login, password) ->
                file.append(login).append(':').append(password).append('\n'));
        try {
            Files.writeString(dir.resolve("users"), file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private String log() {
        try {
            return Files.readString(dir.resolve("radicale.log"));
        } catch (IOException e) {
            return "(no log)";
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new AssertionError("no free port: " + e, e);
        }
    }
}
