package dev.weft.llm;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;

/**
 * The model's reply cannot be used: it holds no JSON, its JSON breaks the schema, or it calls a tool
 * that was not offered. Its code is {@link ErrorCode#E_MODEL_OUTPUT_INVALID}; {@link #pointer()} is
 * the JSON pointer of the bad part ({@code /} for the whole reply).
 */
public class ModelOutputInvalidException extends WeftException {
    private static final long serialVersionUID = 1L;

    private final String pointer;

    public ModelOutputInvalidException(String pointer, String message) {
        super(ErrorCode.E_MODEL_OUTPUT_INVALID, message);
        this.pointer = pointer;
    }

    public String pointer() {
        return pointer;
    }
}
