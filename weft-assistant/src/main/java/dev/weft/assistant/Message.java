package dev.weft.assistant;

import dev.weft.plan.PlanMode;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;

/**
 * A message to an assistant: whose it is ({@code user}, the tenant every query is scoped by), which of
 * their conversations it belongs to ({@code session}; the user's one conversation unless a channel
 * or a caller names another), the text, the user's zone when known, how to run it, and optionally the
 * id its run is to have (so that a caller can follow the run's events as it goes), and who the caller
 * vouches the person speaking is ({@link Vouch}; none: nobody vouches, and an assistant that acts for
 * many people under one user must have them prove who they are).
 */
public record Message(
        String user,
        String session,
        String text,
        Optional<ZoneId> zone,
        PlanMode mode,
        Optional<String> runId,
        Optional<Vouch> vouch) {
    public Message {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(vouch, "vouch");
    }

    /** The message of a caller who vouches for no one. */
    public Message(
            String user, String session, String text, Optional<ZoneId> zone, PlanMode mode, Optional<String> runId) {
        this(user, session, text, zone, mode, runId, Optional.empty());
    }

    /** {@code text} from {@code user}, in their one conversation, run to the end ({@link PlanMode#AUTO}). */
    public static Message of(String user, String text) {
        return new Message(user, user, text, Optional.empty(), PlanMode.AUTO, Optional.empty(), Optional.empty());
    }

    public Message zone(ZoneId zone) {
        return new Message(user, session, text, Optional.of(zone), mode, runId, vouch);
    }

    public Message zone(Optional<ZoneId> zone) {
        return new Message(user, session, text, zone, mode, runId, vouch);
    }

    public Message session(String session) {
        return new Message(user, session, text, zone, mode, runId, vouch);
    }

    public Message mode(PlanMode mode) {
        return new Message(user, session, text, zone, mode, runId, vouch);
    }

    /** This message, its run to have the id {@code runId}. */
    public Message runId(String runId) {
        return new Message(user, session, text, zone, mode, Optional.of(runId), vouch);
    }

    /** This message, with {@code vouch} saying who the person speaking is. */
    public Message vouch(Vouch vouch) {
        return new Message(user, session, text, zone, mode, runId, Optional.of(vouch));
    }

    public Message vouch(Optional<Vouch> vouch) {
        return new Message(user, session, text, zone, mode, runId, vouch);
    }
}
