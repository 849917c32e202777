package dev.weft.llm;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import org.jspecify.annotations.Nullable;

/**
 * No model can be called, and trying again will not help: the chosen provider has no API key, the
 * provider rejected the key or does not know the model, or the offline model has no rule for the
 * request. Its code is {@link ErrorCode#E_MODEL_UNAVAILABLE}.
 */
public class ModelUnavailableException extends WeftException {
    private static final long serialVersionUID = 1L;

    public ModelUnavailableException(String message) {
        super(ErrorCode.E_MODEL_UNAVAILABLE, message);
    }

    public ModelUnavailableException(String message, @Nullable Throwable cause) {
        super(ErrorCode.E_MODEL_UNAVAILABLE, message, cause);
    }
}
