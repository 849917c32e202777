package dev.weft.core;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Who holds a run's lease: the host and process (its id and start time, so that a reused process id
 * is told apart) and the runner within it. Written into the store as the lease's owner ({@link
 * #format()}), so that another process on the same host can tell at once that the holder died.
 */
public record LeaseOwner(String host, long pid, Optional<Instant> processStart, String runner) {
    private static final String PREFIX = "weft/";

    public LeaseOwner {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(processStart, "processStart");
        Objects.requireNonNull(runner, "runner");
        if (host.isEmpty() || host.contains("/")) {
            throw new IllegalArgumentException("host must be a non-empty name without '/', was '" + host + "'");
        }
    }

    /** A new runner in this process on this host. */
    public static LeaseOwner ofThisProcess() {
        ProcessHandle self = ProcessHandle.current();
        return new LeaseOwner(
                localHost(),
                self.pid(),
                self.info().startInstant(),
                UUID.randomUUID().toString());
    }

    /** This host's name, as leases record it. */
    public static String localHost() {
        try {
            String name = InetAddress.getLocalHost().getHostName();
            return name.isEmpty() ? "localhost" : name.replace('/', '_');
        } catch (UnknownHostException e) {
            return Optional.ofNullable(System.getenv("HOSTNAME"))
                    .filter(h -> !h.isBlank())
                    .orElse("localhost")
                    .replace('/', '_');
        }
    }

    /** {@code weft/<host>/<pid>/<process start in ms, or ->/<runner>}: the text stored as the lease owner. */
    public String format() {
        return PREFIX + host + "/" + pid + "/"
                + processStart.map(s -> Long.toString(s.toEpochMilli())).orElse("-") + "/" + runner;
    }

    /** The owner {@code text} names, if it is one {@link #format()} wrote; an older or foreign owner is empty. */
    public static Optional<LeaseOwner> parse(String text) {
        if (!text.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String[] parts = text.substring(PREFIX.length()).split("/", 4);
        if (parts.length != 4 || parts[0].isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new LeaseOwner(
                    parts[0],
                    Long.parseLong(parts[1]),
                    parts[2].equals("-")
                            ? Optional.empty()
                            : Optional.of(Instant.ofEpochMilli(Long.parseLong(parts[2]))),
                    parts[3]));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return "process " + pid + " on host " + host;
    }
}
