package dev.weft.concierge.spi;

import dev.weft.core.StepScope;
import java.util.List;

/**
 * Works on one kind of goal in two passes (seed 004): the first may ask for tools from the goal's list
 * (or answer at once); the second gets their results and answers from them, and must ask for no tool (a
 * second pass that does is refused with {@code E_PASS2_TOOL_REQUEST}, never quietly ignored). Thread-safe.
 */
public interface Specialist {
    SpecialistOutput first(StepScope step, SpecialistInput input);

    SpecialistOutput second(StepScope step, SpecialistInput input, SpecialistOutput first, List<ToolResult> results);
}
