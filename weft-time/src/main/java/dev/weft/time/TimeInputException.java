package dev.weft.time;

/** Thrown when the input to a parse is unusable: empty text, an unknown language or zone. */
public final class TimeInputException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public TimeInputException(String message) {
        super(message);
    }

    /** The stable error code, as in every Weft error. */
    public String code() {
        return "E_BAD_INPUT";
    }
}
