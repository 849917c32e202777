package dev.weft.assistant;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Graph;
import dev.weft.core.NotFoundException;
import dev.weft.core.Run;
import dev.weft.core.Runner;
import dev.weft.plan.ToolRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An assistant that people talk to (Memo, the concierge): each message is a run on the runtime, and
 * a run that waits for a person (an approval, a question) is continued by the next message or by
 * {@link #approve}, {@link #reject} and {@link #answer}. Implementations are thread-safe: one
 * instance serves every user, and every query it makes is scoped by the message's user.
 */
public interface Assistant {
    /** The name callers use: the CLI's {@code --assistant}, the OpenAI endpoint's model, MCP's prefix. */
    String name();

    /** One line on what the assistant does, for listings ({@code /v1/models}, help). */
    String description();

    /**
     * How the assistant introduces itself to the person it talks to, in words said to them and
     * without a final full stop ("Memo — your calendar, reminders, …"): the opening of a chat. By
     * default its name and its description.
     */
    default String introduction() {
        return name() + " — " + description();
    }

    /**
     * Whether the assistant serves many people under one user (the concierge: a shop's customers under
     * the shop's key) rather than its user alone (Memo). Such an assistant never continues a user's one
     * conversation for a request that names none — each such request gets a conversation of its own, so
     * that nothing one person proved is shared with the next — and it is the only kind a key made for
     * one customer may talk to.
     */
    default boolean servesCustomers() {
        return false;
    }

    /**
     * One turn of {@code message}'s conversation: when the conversation waits on a question the message
     * answers it, when it waits on an approval a "yes" / "no" (in the user's language) approves or
     * rejects it, and otherwise the message starts a new run.
     *
     * @throws dev.weft.core.WeftException {@code E_BAD_INPUT} for an empty message or a bad user
     */
    Turn converse(Runner runner, Message message);

    /**
     * A message that starts a run of its own, whatever {@code message}'s conversation waits on (Memo's
     * {@code ask}, with its preview and approval modes): a yes is a request, not an approval. An
     * assistant that tells the two apart no other way answers it as {@link #converse} does (the default).
     *
     * @throws dev.weft.core.WeftException {@code E_BAD_INPUT} for an empty message or a bad user
     */
    default Turn ask(Runner runner, Message message) {
        return converse(runner, message);
    }

    /**
     * The last {@code count} lines of {@code user}'s conversation {@code session}, oldest first, as the
     * assistant keeps them (none for an assistant that keeps no conversation, the default), so that a
     * surface shows where it left off without reading the assistant's tables.
     */
    default List<ConversationLine> history(String user, String session, int count) {
        return List.of();
    }

    /**
     * The run that the next message of {@code user}'s conversation {@code session} would continue (one
     * of theirs that waits on a person), so that a caller streaming a turn follows that run and no
     * other; empty when the next message starts a new run.
     */
    default Optional<String> continues(Runner runner, String user, String session) {
        return Optional.empty();
    }

    /**
     * Approves what {@code user}'s waiting run {@code runId} waits for ({@code steps}, or all of it when
     * empty) and continues it.
     *
     * @throws NotFoundException for a run that does not exist or is another user's
     */
    Turn approve(Runner runner, String user, String runId, List<String> steps);

    /** Rejects what {@code user}'s waiting run waits for; its waiting steps end skipped. */
    Turn reject(Runner runner, String user, String runId);

    /** Answers the question {@code user}'s waiting run asked ("2" picks the second option). */
    Turn answer(Runner runner, String user, String runId, String text);

    /**
     * Undoes what {@code user}'s run {@code runId} changed, or their latest run that changed something
     * when {@code runId} is empty, and says so in the user's language.
     *
     * @throws NotFoundException when there is no such run of the user's, or nothing of theirs to undo
     */
    default Turn undo(Runner runner, String user, Optional<String> runId) {
        throw new NotFoundException("assistant '" + name() + "' cannot undo its runs");
    }

    /**
     * The turn of {@code user}'s run {@code runId}, which {@link #converse} started earlier with that id
     * (a channel handling a message again after its process died): the reply the run gives now, so that
     * the message is answered without a second run. Empty when the assistant cannot say (the default).
     *
     * @throws NotFoundException for a run that does not exist ({@code E_FORBIDDEN} for another user's)
     */
    default Optional<Turn> turnOf(Runner runner, String user, String runId) {
        return Optional.empty();
    }

    /**
     * What {@code user}'s waiting run {@code runId} asks of a person, by the interrupt's node id
     * ({@code step:A}), in the words the assistant asks it in: for a page that shows the run (the
     * operator's runs page) to show the sentence a person decides by, not only the call. A wait the
     * assistant has no words for is left out; none by default, and the surface shows the call itself.
     *
     * @throws NotFoundException for a run that does not exist ({@code E_FORBIDDEN} for another user's)
     */
    default Map<String, Question> questions(Runner runner, String user, String runId) {
        return Map.of();
    }

    /**
     * What {@code user} keeps with this assistant of one {@code kind} (Memo's {@code tasks}, {@code
     * lists}, …), as JSON, read by the assistant itself so that a surface (the HTTP API, the page) shows
     * it without reading the assistant's tables; {@code query} narrows it where the kind takes a query
     * (Memo's {@code memories}: {@code q}, {@code limit}). Empty for a kind the assistant does not keep.
     */
    default Optional<JsonNode> kept(String user, String kind, Map<String, String> query) {
        return Optional.empty();
    }

    /** What the assistant tells its users unasked (reminders), for channels to deliver; none by default. */
    default Optional<Notices> notices() {
        return Optional.empty();
    }

    /**
     * What the assistant does in the background of a process that serves it (Memo: its users' calendars
     * kept in sync), which the process starts with itself and stops with itself; none by default.
     */
    default List<BackgroundService> services() {
        return List.of();
    }

    /**
     * Loads now what the assistant's first turn would otherwise load (a classifier's model, a time
     * grammar), so that the first person to write after a start does not wait for it. A process that
     * serves the assistant calls it once, off the request path; it plans nothing and changes nothing.
     * Nothing to load by default.
     */
    default void warmUp() {}

    /** The service of this assistant named {@code name}, if it has one. */
    default Optional<BackgroundService> service(String name) {
        return services().stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /**
     * The tools the assistant offers to other agents (MCP), with their schemas and risk. A tool called
     * through them acts for the user of its {@link dev.weft.plan.ToolContext}, never another.
     */
    ToolRegistry tools();

    /** Whether {@code run} is one of this assistant's (so that it approves, rejects and answers it). */
    boolean owns(Run run);

    /**
     * The graph of one of this assistant's stored runs, to resume, recover or re-run it in a process
     * that did not start it; empty when {@code run} is not the assistant's.
     */
    Optional<Graph> graphOf(Run run);
}
