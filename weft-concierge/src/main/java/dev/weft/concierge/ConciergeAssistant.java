package dev.weft.concierge;

import dev.weft.assistant.Assistant;
import dev.weft.assistant.Message;
import dev.weft.assistant.Turn;
import dev.weft.core.Graph;
import dev.weft.core.Run;
import dev.weft.core.RunResult;
import dev.weft.core.Runner;
import dev.weft.plan.ToolRegistry;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The concierge as an {@link Assistant}: what the command line, the server and the OpenAI endpoint reach
 * it through. A message's {@code session} is the conversation (one customer's); its {@code user} is the
 * API user the conversation belongs to. Thread-safe.
 */
public final class ConciergeAssistant implements Assistant {
    private final Concierge concierge;

    public ConciergeAssistant(Concierge concierge) {
        this.concierge = Objects.requireNonNull(concierge, "concierge");
    }

    /** The concierge behind this assistant, for what only it has (the shop, the conversations). */
    public Concierge concierge() {
        return concierge;
    }

    @Override
    public String name() {
        return Concierge.NAME;
    }

    @Override
    public String introduction() {
        return "The shop's concierge — products, quotes and orders; order status, cancellations, returns,"
                + " exchanges and address changes";
    }

    @Override
    public String description() {
        return "The concierge: a shop's sales and support assistant (products, quotes, orders; order status,"
                + " cancellations, returns, exchanges, address changes, tickets), in English and Hebrew";
    }

    @Override
    public Turn converse(Runner runner, Message message) {
        return turn(concierge.converse(
                runner, message.user(), message.session(), message.text(), message.runId(), message.vouch()));
    }

    /** A shop's key serves many customers: a request that names no conversation gets one of its own. */
    @Override
    public boolean servesCustomers() {
        return true;
    }

    @Override
    public Optional<String> continues(Runner runner, String user, String session) {
        return concierge.waiting(runner, user, session).map(RunResult::runId);
    }

    @Override
    public Turn approve(Runner runner, String user, String runId, List<String> steps) {
        return turn(concierge.approve(runner, user, runId));
    }

    @Override
    public Turn reject(Runner runner, String user, String runId) {
        return turn(concierge.reject(runner, user, runId));
    }

    /** The concierge asks no questions a run waits on, only for a yes or a no: an answer is one of those. */
    @Override
    public Turn answer(Runner runner, String user, String runId, String text) {
        return turn(
                dev.weft.concierge.internal.Confirmation.of(text) == dev.weft.concierge.internal.Confirmation.YES
                        ? concierge.approve(runner, user, runId)
                        : concierge.reject(runner, user, runId));
    }

    /** The reply of a turn {@link #converse} ran under {@code runId}, given again without a second turn. */
    @Override
    public Optional<Turn> turnOf(Runner runner, String user, String runId) {
        return Optional.of(turn(concierge.turnOf(runner, user, runId)));
    }

    @Override
    public ToolRegistry tools() {
        return concierge.tools().registry();
    }

    @Override
    public boolean owns(Run run) {
        return concierge.owns(run);
    }

    @Override
    public Optional<Graph> graphOf(Run run) {
        return concierge.graphOf(run);
    }

    static Turn turn(Concierge.Reply reply) {
        return new Turn(reply.language(), reply.run(), reply.text(), reply.json(), Turn.Usage.NONE);
    }
}
