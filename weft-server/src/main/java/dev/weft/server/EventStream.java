package dev.weft.server;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Server-sent events written straight to a response's body, for a protocol that chooses streaming by
 * its request's body rather than by its {@code Accept} header: OpenAI's {@code "stream": true}, which
 * its own SDKs send with {@code Accept: application/json}. Helidon's {@code SseSink} is chosen by
 * content negotiation and is not offered to such a request ("Unable to find sink provider"), so this
 * writes the {@code text/event-stream} framing itself and flushes each event as it is written. Used by
 * one request's thread.
 */
final class EventStream implements AutoCloseable {
    private final OutputStream out;

    private EventStream(OutputStream out) {
        this.out = out;
    }

    /** Starts {@code res}'s body as {@code text/event-stream}, whatever the request accepts. */
    static EventStream open(ServerResponse res) {
        res.header(HeaderNames.CONTENT_TYPE, "text/event-stream");
        res.header(HeaderNames.CACHE_CONTROL, "no-cache");
        return new EventStream(res.outputStream());
    }

    /**
     * One event of {@code text}: a {@code data: } line per line of it (with the space after the colon
     * that OpenAI sends, and some hand-written clients look for), then a blank line, flushed.
     *
     * @throws UncheckedIOException when the client has gone
     */
    void data(String text) {
        write(new StringBuilder(text.length() + 16), text);
    }

    /**
     * One event named {@code type} (its {@code event:} line, which typed protocols such as OpenAI's
     * Responses API dispatch on), then its {@code text} as {@link #data}.
     *
     * @throws UncheckedIOException when the client has gone
     */
    void event(String type, String text) {
        write(
                new StringBuilder(text.length() + type.length() + 24)
                        .append("event: ")
                        .append(type)
                        .append('\n'),
                text);
    }

    private void write(StringBuilder event, String text) {
        for (String line : text.split("\r\n|\r|\n", -1)) {
            event.append("data: ").append(line).append('\n');
        }
        event.append('\n');
        try {
            out.write(event.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
