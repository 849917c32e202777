package dev.weft.cli;

import dev.weft.assistant.Turn;
import dev.weft.core.Event;
import java.io.PrintWriter;

/**
 * The model's words of a chat's turn printed as the model writes them (its run's {@code
 * assistant.delta} events from a model, heard as they happen), and then what the finished reply says
 * besides. A reply written by rules is printed whole when the turn is over. Thread-safe: the words come
 * on the run's thread, the reply on the chat's.
 */
final class SpokenWords {
    /** The event a model's token delta comes as, and its {@code source} (weft-llm's {@code ModelCalls}). */
    private static final String MODEL_DELTA = "assistant.delta";

    private static final String MODEL_SOURCE = "model";

    private final PrintWriter out;
    private final String speaker;
    private final StringBuilder said = new StringBuilder();

    SpokenWords(PrintWriter out, String speaker) {
        this.out = out;
        this.speaker = speaker;
    }

    /** Prints {@code event}'s words at once when it is the model speaking. */
    void onEvent(Event event) {
        if (!event.type().equals(MODEL_DELTA)
                || !event.data().path("source").asText().equals(MODEL_SOURCE)) {
            return;
        }
        String words = event.data().path("text").asText();
        synchronized (out) {
            if (said.isEmpty()) {
                out.print(speaker + "> ");
            }
            said.append(words);
            out.print(indent(words));
            out.flush();
        }
    }

    /** Prints the rest of the turn's {@code reply} (all of it when nothing was streamed), and starts over. */
    void finish(String reply) {
        synchronized (out) {
            if (said.isEmpty()) {
                out.println(speaker + "> " + indent(reply));
            } else {
                out.println(indent(Turn.remainder(said.toString(), reply)));
                said.setLength(0);
            }
        }
    }

    /** Ends a line of words the model began when the turn failed, and starts over. */
    void abandon() {
        synchronized (out) {
            if (!said.isEmpty()) {
                out.println();
                said.setLength(0);
            }
        }
    }

    private static String indent(String text) {
        return text.replace("\n", "\n      ");
    }
}
