package dev.weft.plan;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.plan.internal.Schemas;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Something a step can do: a name, a description, input and output JSON Schemas, a risk level,
 * whether calling it twice with the same key is harmless, the call itself, and optionally how to undo
 * it. Immutable and thread-safe; build one with {@link #typed} (schemas generated from records) or
 * {@link #json}.
 */
public final class Tool {
    /** The call: arguments (already validated) in, result out. */
    @FunctionalInterface
    public interface Call {
        JsonNode call(ObjectNode args, ToolContext context);
    }

    /** Derives the undo of a committed call from its arguments and result; empty when there is nothing to undo. */
    @FunctionalInterface
    public interface Undo {
        Optional<UndoAction> undoFor(ObjectNode args, JsonNode result);
    }

    private static final ObjectReader LENIENT = Json.mapper()
            .reader()
            .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .with(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
            .with(DeserializationFeature.UNWRAP_SINGLE_VALUE_ARRAYS);

    private final String name;
    private final String description;
    private final ObjectNode inputSchema;
    private final ObjectNode outputSchema;
    private final JsonSchema inputValidator;
    private final JsonSchema outputValidator;
    private final Risk risk;
    private final java.util.function.Function<JsonNode, Risk> riskOfCall;
    private final boolean idempotent;
    private final boolean lenient;
    private final boolean chat;
    private final Duration timeout;
    private final Call call;
    private final Optional<Undo> undo;
    /** The start of seed 001's input table before each call, the same for every call. */
    private final String inputTableHeader;

    private Tool(Builder builder) {
        this.name = builder.name;
        this.description = builder.description;
        this.inputSchema = builder.inputSchema;
        this.outputSchema = builder.outputSchema;
        this.inputValidator = Schemas.compile(inputSchema);
        this.outputValidator = Schemas.compile(outputSchema);
        this.risk = builder.risk;
        this.riskOfCall = builder.riskOfCall;
        this.idempotent = builder.idempotent;
        this.lenient = builder.lenient || builder.chat;
        this.chat = builder.chat;
        this.timeout = builder.timeout;
        this.call = builder.call;
        this.undo = Optional.ofNullable(builder.undo);
        this.inputTableHeader = "**" + name + "**\n\n| Parameter | Value |\n|---|---|\n";
    }

    /**
     * A tool whose input and output are Java types: the schemas are generated from them (records
     * become closed objects whose components are required unless {@code Optional} or
     * {@code @Nullable}), and arguments are converted to {@code input} before {@code function} runs.
     */
    public static <I, O> Builder typed(
            String name, String description, Class<I> input, Class<O> output, BiFunction<I, ToolContext, O> function) {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(function, "function");
        Builder builder = new Builder(name, description, Schemas.of(input), Schemas.of(output), null);
        builder.call = (args, context) -> {
            I value = builder.convert(args, input);
            O result = function.apply(value, context);
            return Json.mapper().valueToTree(result);
        };
        return builder;
    }

    /** A tool described by JSON Schemas directly. */
    public static Builder json(
            String name, String description, ObjectNode inputSchema, ObjectNode outputSchema, Call call) {
        return new Builder(name, description, inputSchema, outputSchema, Objects.requireNonNull(call, "call"));
    }

    public String name() {
        return name;
    }

    public String description() {
        return description;
    }

    public ObjectNode inputSchema() {
        return inputSchema;
    }

    public ObjectNode outputSchema() {
        return outputSchema;
    }

    /** The risk of the tool: the highest risk any call of it may have. */
    public Risk risk() {
        return risk;
    }

    /**
     * The risk of a call with {@code args}: the tool's {@link #risk()}, or, for a tool whose risk
     * depends on what a call does ({@link Builder#risk(java.util.function.Function)}: deleting one
     * task versus all of them), what the tool says of these arguments.
     */
    public Risk risk(JsonNode args) {
        return riskOfCall.apply(args);
    }

    public boolean idempotent() {
        return idempotent;
    }

    /** Whether arguments are parsed on a best-effort basis instead of validated strictly (seed 001's {@code chat.respond}). */
    public boolean lenient() {
        return lenient;
    }

    /** Whether this tool talks to the user (no input table before it, {@code assistant.final} after it). */
    public boolean chat() {
        return chat;
    }

    public Duration timeout() {
        return timeout;
    }

    public Optional<Undo> undo() {
        return undo;
    }

    /** Every way {@code args} break the input schema; empty when valid. */
    public java.util.List<Schemas.Violation> checkInput(JsonNode args) {
        return Schemas.validate(inputValidator, args);
    }

    /**
     * Checks {@code args} against the input schema, unless the tool is lenient.
     *
     * @throws WeftException {@code E_ARGS_INVALID} naming {@code stepId}, this tool and the JSON pointer
     *     of every bad field
     */
    public void requireValidInput(String stepId, JsonNode args) {
        if (lenient) {
            return;
        }
        java.util.List<Schemas.Violation> violations = checkInput(args);
        if (!violations.isEmpty()) {
            throw new WeftException(
                    ErrorCode.E_ARGS_INVALID,
                    "step '" + stepId + "': arguments of tool '" + name + "' are invalid at " + violations.get(0)
                            + (violations.size() > 1
                                    ? " (and " + (violations.size() - 1) + " more: "
                                            + violations.subList(1, violations.size()) + ")"
                                    : ""));
        }
    }

    /**
     * Checks a result against the output schema, unless the tool is lenient (a lenient tool's output
     * is not held to its schema).
     *
     * @throws WeftException {@code E_TOOL_FAILED} naming the first violation
     */
    public void requireValidOutput(JsonNode result) {
        if (lenient) {
            return;
        }
        java.util.List<Schemas.Violation> violations = checkOutput(result);
        if (!violations.isEmpty()) {
            throw new WeftException(
                    ErrorCode.E_TOOL_FAILED,
                    "tool '" + name + "' returned output that breaks its own schema at " + violations.get(0));
        }
    }

    /** Every way {@code result} breaks the output schema; empty when valid. */
    public java.util.List<Schemas.Violation> checkOutput(JsonNode result) {
        return Schemas.validate(outputValidator, result);
    }

    /**
     * Makes the call on the current thread, with {@code args} as they are (the step pipeline, and
     * {@link ToolRegistry#call}, validate them first).
     *
     * @throws ApprovalRequiredException if the tool is high-risk and {@code context} is not approved:
     *     whatever path a call comes by, a high-risk tool acts only once a person said yes
     */
    public JsonNode invoke(ObjectNode args, ToolContext context) {
        if (!chat && !context.approved() && risk(args) == Risk.HIGH) {
            throw new ApprovalRequiredException("tool '" + name + "' is high-risk and step '" + context.stepId()
                    + "' of run '" + context.runId() + "' was not approved by a person; nothing was done");
        }
        JsonNode result = call.call(args, context);
        return result == null ? Json.mapper().nullNode() : result;
    }

    /** The header of the input table a step shows before calling this tool ({@code StepNode#inputTable}). */
    String inputTableHeader() {
        return inputTableHeader;
    }

    @Override
    public String toString() {
        return "Tool[" + name + ", risk=" + risk + "]";
    }

    /** Builds a {@link Tool}; every setter rejects a bad value at once. */
    public static final class Builder {
        private final String name;
        private final String description;
        private final ObjectNode inputSchema;
        private final ObjectNode outputSchema;
        private Call call;
        private Risk risk = Risk.LOW;
        private java.util.function.Function<JsonNode, Risk> riskOfCall = args -> Risk.LOW;
        private boolean idempotent;
        private boolean lenient;
        private boolean chat;
        private Duration timeout = Duration.ofSeconds(30);
        private Undo undo;

        private Builder(String name, String description, ObjectNode inputSchema, ObjectNode outputSchema, Call call) {
            Objects.requireNonNull(name, "name");
            if (!name.matches("[A-Za-z][A-Za-z0-9_.-]*")) {
                throw new IllegalArgumentException(
                        "tool name must start with a letter and hold only letters, digits, '_', '.' and '-', was '"
                                + name + "'");
            }
            this.name = name;
            this.description = Objects.requireNonNull(description, "description");
            this.inputSchema = Objects.requireNonNull(inputSchema, "inputSchema");
            this.outputSchema = Objects.requireNonNull(outputSchema, "outputSchema");
            this.call = call;
        }

        <I> I convert(ObjectNode args, Class<I> type) {
            try {
                return lenient || chat
                        ? LENIENT.treeToValue(args, type)
                        : Json.mapper().treeToValue(args, type);
            } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
                throw new WeftException(
                        ErrorCode.E_ARGS_INVALID,
                        "arguments of tool '" + name + "' do not fit " + type.getSimpleName()
                                + ": "
                                + (e instanceof com.fasterxml.jackson.core.JsonProcessingException j
                                        ? j.getOriginalMessage()
                                        : e.getMessage()));
            }
        }

        public Builder risk(Risk risk) {
            Risk fixed = Objects.requireNonNull(risk, "risk");
            this.risk = fixed;
            this.riskOfCall = args -> fixed;
            return this;
        }

        /**
         * The risk of each call, from its arguments: a tool of many operations may be high-risk for
         * some ({@code deleteAll}) and not others. The tool's own {@link Tool#risk()} is then {@code
         * HIGH}, the most any call may have.
         */
        public Builder risk(java.util.function.Function<JsonNode, Risk> riskOfCall) {
            this.riskOfCall = Objects.requireNonNull(riskOfCall, "riskOfCall");
            this.risk = Risk.HIGH;
            return this;
        }

        /** Calling it twice with the same idempotency key does no more than calling it once. */
        public Builder idempotent(boolean idempotent) {
            this.idempotent = idempotent;
            return this;
        }

        public Builder lenient(boolean lenient) {
            this.lenient = lenient;
            return this;
        }

        /** Marks the tool as the one that talks to the user; implies lenient. */
        public Builder chat(boolean chat) {
            this.chat = chat;
            return this;
        }

        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout of tool '" + name + "' must be positive, was " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        public Builder undo(Undo undo) {
            this.undo = Objects.requireNonNull(undo, "undo");
            return this;
        }

        public Tool build() {
            return new Tool(this);
        }
    }
}
