package dev.weft.core.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BinaryNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ShortNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.RunError;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import dev.weft.core.spi.Checkpoint;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiConsumer;

/**
 * The steps, events and checkpoints of a finished run, kept as one byte array and read back on demand:
 * a finished run is read rarely, and as objects it is about 350 small ones (JSON nodes, events,
 * instants) that every young collection of a busy process copies and every old one marks.
 *
 * <p>Written by hand rather than with Jackson's JSON or Smile because a reader must get back exactly
 * what was stored: every JSON node of the same class and value (a {@code LongNode} 5 stays a long, a
 * {@code DecimalNode} keeps its scale), which a text or Smile round trip does not promise. A node this
 * cannot encode (a {@code POJONode}) leaves the run as objects ({@link #freeze} returns empty).
 * Strings are written once a run and referred to after, so node ids and field names repeated across
 * records cost a few bytes. Immutable, so thread-safe.
 */
final class FrozenRun {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final StepStatus[] STEP_STATUSES = StepStatus.values();
    private static final ErrorCode[] ERROR_CODES = ErrorCode.values();

    private final byte[] bytes;
    private final int eventsAt;
    private final int checkpointsAt;

    private FrozenRun(byte[] bytes, int eventsAt, int checkpointsAt) {
        this.bytes = bytes;
        this.eventsAt = eventsAt;
        this.checkpointsAt = checkpointsAt;
    }

    /**
     * The run's records as bytes, or empty if one holds a JSON node of a kind this does not encode.
     *
     * @param steps by order, {@code null} where no step of that order was stored
     */
    static Optional<FrozenRun> freeze(List<Step> steps, List<Event> events, List<Checkpoint> checkpoints) {
        Writer out = Writer.take();
        try {
            out.count(steps.size());
            for (Step step : steps) {
                out.bool(step != null);
                if (step != null) {
                    out.step(step);
                }
            }
            int eventsAt = out.startSection();
            out.count(events.size());
            for (Event event : events) {
                out.event(event);
            }
            int checkpointsAt = out.startSection();
            out.count(checkpoints.size());
            for (Checkpoint checkpoint : checkpoints) {
                out.checkpoint(checkpoint);
            }
            return Optional.of(new FrozenRun(Arrays.copyOf(out.bytes, out.size), eventsAt, checkpointsAt));
        } catch (UnencodableNode e) {
            return Optional.empty();
        } finally {
            out.putBack();
        }
    }

    /** The steps by order, {@code null} where none was stored (as the store keeps them). */
    List<Step> steps(String runId) {
        Reader in = new Reader(bytes, 0);
        int count = in.count();
        List<Step> steps = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            steps.add(in.bool() ? in.step(runId) : null);
        }
        return steps;
    }

    /** The events in the order they were appended. */
    List<Event> events(String runId) {
        Reader in = new Reader(bytes, eventsAt);
        int count = in.count();
        List<Event> events = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            events.add(in.event(runId));
        }
        return events;
    }

    /** The checkpoints in the order they were saved. */
    List<Checkpoint> checkpoints(String runId) {
        Reader in = new Reader(bytes, checkpointsAt);
        int count = in.count();
        List<Checkpoint> checkpoints = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            checkpoints.add(in.checkpoint(runId));
        }
        return checkpoints;
    }

    /** The size of the bytes kept, for tests and measurement. */
    int size() {
        return bytes.length;
    }

    /** A JSON node of a kind {@link Writer} does not encode; never leaves this class. */
    private static final class UnencodableNode extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnencodableNode() {
            super(null, null, false, false);
        }
    }

    // Node tags.
    private static final int NULL = 0;
    private static final int MISSING = 1;
    private static final int TRUE = 2;
    private static final int FALSE = 3;
    private static final int INT = 4;
    private static final int LONG = 5;
    private static final int SHORT = 6;
    private static final int BIG_INTEGER = 7;
    private static final int DOUBLE = 8;
    private static final int FLOAT = 9;
    private static final int DECIMAL = 10;
    private static final int TEXT = 11;
    private static final int BINARY = 12;
    private static final int ARRAY = 13;
    private static final int OBJECT = 14;

    private static final class Writer {
        byte[] bytes;
        int size;
        /**
         * Each string written so far in this section and its number: the second time a string is a
         * reference. A section numbers its own, so that each is read without the ones before it.
         */
        private final StringNumbers strings = new StringNumbers();
        /**
         * Writes one field of an object: made once a writer, since iterating an object's fields
         * otherwise makes (and keeps on the node) an entry set and an iterator a node.
         */
        private final BiConsumer<String, JsonNode> field = (name, value) -> {
            string(name);
            node(value);
        };

        /**
         * Writers not in use, each with the buffer it grew to: a run is written into one of them and
         * copied out once at its size, rather than into arrays that double until it fits.
         */
        private static final AtomicReferenceArray<Writer> IDLE = new AtomicReferenceArray<>(16);
        /** A writer whose buffer grew past this (a run with a big output) is not kept. */
        private static final int KEPT_BUFFER_LIMIT = 1 << 16;

        private Writer() {
            bytes = new byte[4096];
        }

        static Writer take() {
            for (int i = 0; i < IDLE.length(); i++) {
                Writer idle = IDLE.getAndSet(i, null);
                if (idle != null) {
                    return idle;
                }
            }
            return new Writer();
        }

        void putBack() {
            if (bytes.length > KEPT_BUFFER_LIMIT) {
                return;
            }
            size = 0;
            strings.clear();
            for (int i = 0; i < IDLE.length(); i++) {
                if (IDLE.compareAndSet(i, null, this)) {
                    return;
                }
            }
        }

        int startSection() {
            strings.clear();
            return size;
        }

        void step(Step step) {
            signed(step.order());
            string(step.nodeId());
            string(step.name());
            string(step.type());
            count(step.status().ordinal());
            signed(step.attempt());
            bool(step.pinned());
            node(step.input());
            node(step.output());
            error(step.error());
            optionalInstant(step.startedAt());
            optionalInstant(step.endedAt());
            nodes(step.details());
        }

        void event(Event event) {
            signed(event.sequence());
            string(event.type());
            bool(event.nodeId().isPresent());
            if (event.nodeId().isPresent()) {
                string(event.nodeId().get());
            }
            signed(event.stepOrder());
            instant(event.time());
            node(event.data());
        }

        void checkpoint(Checkpoint checkpoint) {
            signed(checkpoint.afterStep());
            signed(checkpoint.nextOrder());
            instant(checkpoint.time());
            nodes(checkpoint.outputs());
            count(checkpoint.visits().size());
            for (Map.Entry<String, Integer> visit : checkpoint.visits().entrySet()) {
                string(visit.getKey());
                signed(visit.getValue());
            }
            count(checkpoint.pending().size());
            for (Checkpoint.Activation activation : checkpoint.pending()) {
                string(activation.nodeId());
                signed(activation.stepOrder());
                count(activation.arrivals().size());
                for (Checkpoint.Arrival arrival : activation.arrivals()) {
                    string(arrival.from());
                    node(arrival.value());
                }
            }
            count(checkpoint.waiting().size());
            for (Checkpoint.Waiting waiting : checkpoint.waiting()) {
                string(waiting.nodeId());
                signed(waiting.stepOrder());
                node(waiting.input());
                node(waiting.payload());
            }
            nodes(checkpoint.ended());
            string(checkpoint.lastEnded());
        }

        void error(Optional<RunError> error) {
            bool(error.isPresent());
            if (error.isPresent()) {
                count(error.get().code().ordinal());
                string(error.get().message());
            }
        }

        void optionalInstant(Optional<Instant> instant) {
            bool(instant.isPresent());
            if (instant.isPresent()) {
                instant(instant.get());
            }
        }

        void instant(Instant instant) {
            signed(instant.getEpochSecond());
            count(instant.getNano());
        }

        void nodes(Map<String, JsonNode> nodes) {
            count(nodes.size());
            for (Map.Entry<String, JsonNode> entry : nodes.entrySet()) {
                string(entry.getKey());
                node(entry.getValue());
            }
        }

        void node(JsonNode node) {
            switch (node) {
                case ObjectNode object -> {
                    tag(OBJECT);
                    count(object.size());
                    object.forEachEntry(field);
                }
                case ArrayNode array -> {
                    tag(ARRAY);
                    int size = array.size();
                    count(size);
                    for (int i = 0; i < size; i++) {
                        node(array.get(i));
                    }
                }
                case TextNode text -> {
                    tag(TEXT);
                    string(text.textValue());
                }
                case IntNode number -> {
                    tag(INT);
                    signed(number.intValue());
                }
                case LongNode number -> {
                    tag(LONG);
                    signed(number.longValue());
                }
                case ShortNode number -> {
                    tag(SHORT);
                    signed(number.shortValue());
                }
                case BigIntegerNode number -> {
                    tag(BIG_INTEGER);
                    blob(number.bigIntegerValue().toByteArray());
                }
                case DoubleNode number -> {
                    tag(DOUBLE);
                    fixed(Double.doubleToRawLongBits(number.doubleValue()), 8);
                }
                case FloatNode number -> {
                    tag(FLOAT);
                    fixed(Float.floatToRawIntBits(number.floatValue()), 4);
                }
                case DecimalNode number -> {
                    tag(DECIMAL);
                    BigDecimal value = number.decimalValue();
                    blob(value.unscaledValue().toByteArray());
                    signed(value.scale());
                }
                case BooleanNode flag -> tag(flag.booleanValue() ? TRUE : FALSE);
                case NullNode ignored -> tag(NULL);
                case MissingNode ignored -> tag(MISSING);
                case BinaryNode binary -> {
                    tag(BINARY);
                    blob(binary.binaryValue());
                }
                default -> throw new UnencodableNode();
            }
        }

        void string(String value) {
            int known = strings.numberOf(value);
            if (known >= 0) {
                count(known + 1);
                return;
            }
            count(0);
            int length = value.length();
            room(5 + length);
            int lengthAt = size;
            count(length);
            // Most strings here (node ids, event types, field names) are ASCII: copied without an
            // intermediate array; any other is encoded as UTF-8 and written after its length.
            for (int i = 0; i < length; i++) {
                char c = value.charAt(i);
                if (c >= 0x80) {
                    size = lengthAt;
                    blob(value.getBytes(StandardCharsets.UTF_8));
                    return;
                }
                bytes[size++] = (byte) c;
            }
        }

        void blob(byte[] value) {
            count(value.length);
            room(value.length);
            System.arraycopy(value, 0, bytes, size, value.length);
            size += value.length;
        }

        void tag(int tag) {
            room(1);
            bytes[size++] = (byte) tag;
        }

        void bool(boolean value) {
            tag(value ? 1 : 0);
        }

        void fixed(long bits, int length) {
            room(length);
            for (int i = 0; i < length; i++) {
                bytes[size++] = (byte) (bits >>> (8 * i));
            }
        }

        /** A signed number, zigzag-encoded so that small negative ones stay short. */
        void signed(long value) {
            count((value << 1) ^ (value >> 63));
        }

        /** An unsigned number, seven bits a byte. */
        void count(long value) {
            room(10);
            while ((value & ~0x7FL) != 0) {
                bytes[size++] = (byte) ((value & 0x7F) | 0x80);
                value >>>= 7;
            }
            bytes[size++] = (byte) value;
        }

        private void room(int more) {
            if (size + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
            }
        }
    }

    /**
     * The strings a section has written and their numbers, in an open-addressed table: a run has a few
     * dozen distinct ones, and a {@code HashMap} would allocate an entry and often an {@code Integer}
     * for each.
     */
    private static final class StringNumbers {
        private String[] keys = new String[64];
        private int[] numbers = new int[64];
        private int count;

        void clear() {
            if (count > 0) {
                Arrays.fill(keys, null);
                count = 0;
            }
        }

        /** The number of {@code value} if it was written before; else numbers it and returns -1. */
        int numberOf(String value) {
            int mask = keys.length - 1;
            for (int slot = value.hashCode() & mask; ; slot = (slot + 1) & mask) {
                String key = keys[slot];
                if (key == null) {
                    keys[slot] = value;
                    numbers[slot] = count++;
                    if (count * 2 > keys.length) {
                        grow();
                    }
                    return -1;
                }
                if (key.equals(value)) {
                    return numbers[slot];
                }
            }
        }

        private void grow() {
            String[] oldKeys = keys;
            int[] oldNumbers = numbers;
            keys = new String[oldKeys.length * 2];
            numbers = new int[oldKeys.length * 2];
            int mask = keys.length - 1;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldKeys[i] != null) {
                    int slot = oldKeys[i].hashCode() & mask;
                    while (keys[slot] != null) {
                        slot = (slot + 1) & mask;
                    }
                    keys[slot] = oldKeys[i];
                    numbers[slot] = oldNumbers[i];
                }
            }
        }
    }

    private static final class Reader {
        private final byte[] bytes;
        private int at;
        private final List<String> strings = new ArrayList<>();

        Reader(byte[] bytes, int at) {
            this.bytes = bytes;
            this.at = at;
        }

        Step step(String runId) {
            int order = (int) signed();
            String nodeId = string();
            String name = string();
            String type = string();
            StepStatus status = STEP_STATUSES[count()];
            int attempt = (int) signed();
            boolean pinned = bool();
            JsonNode input = node();
            JsonNode output = node();
            Optional<RunError> error = error();
            Optional<Instant> startedAt = optionalInstant();
            Optional<Instant> endedAt = optionalInstant();
            Map<String, JsonNode> details = nodes();
            return new Step(
                    runId, order, nodeId, name, type, status, attempt, pinned, input, output, error, startedAt, endedAt,
                    details);
        }

        Event event(String runId) {
            long sequence = signed();
            String type = string();
            Optional<String> nodeId = bool() ? Optional.of(string()) : Optional.empty();
            int stepOrder = (int) signed();
            Instant time = instant();
            JsonNode data = node();
            return new Event(runId, sequence, type, nodeId, stepOrder, time, data);
        }

        Checkpoint checkpoint(String runId) {
            int afterStep = (int) signed();
            int nextOrder = (int) signed();
            Instant time = instant();
            Map<String, JsonNode> outputs = nodes();
            int visitCount = count();
            Map<String, Integer> visits = HashMap.newHashMap(visitCount);
            for (int i = 0; i < visitCount; i++) {
                visits.put(string(), (int) signed());
            }
            int pendingCount = count();
            List<Checkpoint.Activation> pending = new ArrayList<>(pendingCount);
            for (int i = 0; i < pendingCount; i++) {
                String nodeId = string();
                int stepOrder = (int) signed();
                int arrivalCount = count();
                List<Checkpoint.Arrival> arrivals = new ArrayList<>(arrivalCount);
                for (int j = 0; j < arrivalCount; j++) {
                    arrivals.add(new Checkpoint.Arrival(string(), node()));
                }
                pending.add(new Checkpoint.Activation(nodeId, stepOrder, arrivals));
            }
            int waitingCount = count();
            List<Checkpoint.Waiting> waiting = new ArrayList<>(waitingCount);
            for (int i = 0; i < waitingCount; i++) {
                waiting.add(new Checkpoint.Waiting(string(), (int) signed(), node(), node()));
            }
            Map<String, JsonNode> ended = nodes();
            String lastEnded = string();
            return new Checkpoint(
                    runId, afterStep, nextOrder, time, outputs, visits, pending, waiting, ended, lastEnded);
        }

        Optional<RunError> error() {
            if (!bool()) {
                return Optional.empty();
            }
            ErrorCode code = ERROR_CODES[count()];
            return Optional.of(new RunError(code, string()));
        }

        Optional<Instant> optionalInstant() {
            return bool() ? Optional.of(instant()) : Optional.empty();
        }

        Instant instant() {
            long seconds = signed();
            return Instant.ofEpochSecond(seconds, count());
        }

        Map<String, JsonNode> nodes() {
            int count = count();
            Map<String, JsonNode> nodes = HashMap.newHashMap(count);
            for (int i = 0; i < count; i++) {
                nodes.put(string(), node());
            }
            return nodes;
        }

        JsonNode node() {
            int tag = bytes[at++];
            return switch (tag) {
                case OBJECT -> {
                    int count = count();
                    Map<String, JsonNode> fields = LinkedHashMap.newLinkedHashMap(count);
                    for (int i = 0; i < count; i++) {
                        fields.put(string(), node());
                    }
                    yield new ObjectNode(NODES, fields);
                }
                case ARRAY -> {
                    int count = count();
                    List<JsonNode> items = new ArrayList<>(count);
                    for (int i = 0; i < count; i++) {
                        items.add(node());
                    }
                    yield new ArrayNode(NODES, items);
                }
                case TEXT -> TextNode.valueOf(string());
                case INT -> IntNode.valueOf((int) signed());
                case LONG -> LongNode.valueOf(signed());
                case SHORT -> ShortNode.valueOf((short) signed());
                case BIG_INTEGER -> BigIntegerNode.valueOf(new BigInteger(blob()));
                case DOUBLE -> DoubleNode.valueOf(Double.longBitsToDouble(fixed(8)));
                case FLOAT -> FloatNode.valueOf(Float.intBitsToFloat((int) fixed(4)));
                case DECIMAL -> {
                    BigInteger unscaled = new BigInteger(blob());
                    yield DecimalNode.valueOf(new BigDecimal(unscaled, (int) signed()));
                }
                case TRUE -> BooleanNode.TRUE;
                case FALSE -> BooleanNode.FALSE;
                case NULL -> NullNode.getInstance();
                case MISSING -> MissingNode.getInstance();
                case BINARY -> BinaryNode.valueOf(blob());
                default -> throw new IllegalStateException("no JSON node has tag " + tag + " at byte " + (at - 1));
            };
        }

        String string() {
            int reference = count();
            if (reference > 0) {
                return strings.get(reference - 1);
            }
            int length = count();
            String value = new String(bytes, at, length, StandardCharsets.UTF_8);
            at += length;
            strings.add(value);
            return value;
        }

        byte[] blob() {
            int length = count();
            byte[] value = Arrays.copyOfRange(bytes, at, at + length);
            at += length;
            return value;
        }

        boolean bool() {
            return bytes[at++] != 0;
        }

        long fixed(int length) {
            long bits = 0;
            for (int i = 0; i < length; i++) {
                bits |= (bytes[at++] & 0xFFL) << (8 * i);
            }
            return bits;
        }

        long signed() {
            long raw = varLong();
            return (raw >>> 1) ^ -(raw & 1);
        }

        int count() {
            return (int) varLong();
        }

        private long varLong() {
            long value = 0;
            for (int shift = 0; ; shift += 7) {
                byte b = bytes[at++];
                value |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    return value;
                }
            }
        }
    }
}
