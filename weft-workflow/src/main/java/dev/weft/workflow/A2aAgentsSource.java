package dev.weft.workflow;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The A2A agents a running process asks, as {@code $WEFT_HOME/agents.json} says now ({@code weft agents
 * add} while {@code weft serve} runs): each {@link #current()} looks at the file's modified time, size
 * and identity (one stat, no watcher thread) and reads it again only when they changed. A file that does
 * not read as agents changes nothing: the last list read stays, and the problem is logged once per
 * change of the file with {@code E_AGENTS_INVALID}. The agents of {@code WEFT_A2A_AGENTS} are read once,
 * when the source is made, and win over the file's. Thread-safe.
 */
public final class A2aAgentsSource {
    /** What the file looked like when it was last read: absent, or its time, size and identity. */
    private record Stamp(boolean exists, FileTime modified, long size, Optional<Object> key) {}

    private final Path file;
    private final A2aAgents setting;
    private final Consumer<String> log;
    private Stamp read;
    private A2aAgents fromFile = A2aAgents.none();
    private A2aAgents current;

    private A2aAgentsSource(Path file, A2aAgents setting, Consumer<String> log) {
        this.file = file;
        this.setting = setting;
        this.log = log;
        this.current = setting;
        this.read = new Stamp(false, FileTime.fromMillis(0), -1, Optional.empty());
        refresh(stamp());
    }

    /**
     * The agents of {@code $WEFT_HOME/agents.json} under {@code home}, and of {@code env}'s {@link
     * A2aAgents#SETTING}; {@code log} hears, as a line with {@code E_AGENTS_INVALID}, a file that does not
     * read. The file is read now: one that does not read leaves the setting's agents alone.
     *
     * @throws WeftException {@code E_AGENTS_INVALID} when the setting does not read as agents (a process's
     *     setting is fixed while it runs: it is wrong from the start, not edited)
     */
    public static A2aAgentsSource of(Path home, Map<String, String> env, Consumer<String> log) {
        return new A2aAgentsSource(
                home.resolve(A2aAgents.FILE), A2aAgents.setting(env), Objects.requireNonNull(log, "log"));
    }

    /** The agents as the file says now, or as it last said in a form that read. */
    public synchronized A2aAgents current() {
        Stamp now = stamp();
        if (!now.equals(read)) {
            refresh(now);
        }
        return current;
    }

    private void refresh(Stamp now) {
        read = now;
        try {
            fromFile = A2aAgents.readFile(file);
            current = fromFile.and(setting);
        } catch (WeftException e) {
            if (e.code() != ErrorCode.E_AGENTS_INVALID) {
                throw e;
            }
            log.accept(ErrorCode.E_AGENTS_INVALID + ": " + e.getMessage() + "; the "
                    + fromFile.entries().size() + " agents read before from " + file + " are kept until it is fixed");
        } catch (java.io.UncheckedIOException e) {
            log.accept(ErrorCode.E_AGENTS_INVALID + ": cannot read " + file + ": "
                    + e.getCause().getMessage() + "; the agents read before are kept");
        }
    }

    private Stamp stamp() {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return new Stamp(
                    true, attributes.lastModifiedTime(), attributes.size(), Optional.ofNullable(attributes.fileKey()));
        } catch (NoSuchFileException e) {
            return new Stamp(false, FileTime.fromMillis(0), -1, Optional.empty());
        } catch (IOException e) {
            // Unreadable for now: taken as unchanged, and looked at again next time.
            return read;
        }
    }
}
