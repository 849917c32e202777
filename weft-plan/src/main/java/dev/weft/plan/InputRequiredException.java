package dev.weft.plan;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;

/**
 * A tool's call cannot finish without the user's answer to {@link #question()} ({@code
 * E_INPUT_REQUIRED}): a remote agent asked something. Thrown by the tool, it makes a plan step wait with
 * the question, like a resolver's; the answer is merged over the step's arguments ({@code reply}, or
 * {@code choice} for a number) and the tool is called again, the user's answer counting as their say
 * for that call. A tool that throws it keeps what it already did under {@link ToolContext#once}, so
 * calling it again does not do it twice.
 */
public final class InputRequiredException extends WeftException {
    private static final long serialVersionUID = 1L;

    private final String question;

    public InputRequiredException(String question) {
        super(ErrorCode.E_INPUT_REQUIRED, question);
        this.question = question;
    }

    /** What the user is asked. */
    public String question() {
        return question;
    }
}
