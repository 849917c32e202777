package dev.weft.concierge.internal;

import dev.weft.concierge.shop.ShopTools;
import dev.weft.concierge.spi.Specialist;
import dev.weft.concierge.spi.SpecialistInput;
import dev.weft.concierge.spi.SpecialistOutput;
import dev.weft.concierge.spi.ToolResult;
import dev.weft.core.StepScope;
import dev.weft.llm.Model;
import java.util.List;
import java.util.Objects;

/** The specialist that asks a model: tool calling in its first pass, structured output in its second. */
public final class ModelSpecialist implements Specialist {
    private final Model model;
    private final ShopTools tools;

    public ModelSpecialist(Model model, ShopTools tools) {
        this.model = Objects.requireNonNull(model, "model");
        this.tools = Objects.requireNonNull(tools, "tools");
    }

    @Override
    public SpecialistOutput first(StepScope step, SpecialistInput input) {
        throw new UnsupportedOperationException("written next");
    }

    @Override
    public SpecialistOutput second(
            StepScope step, SpecialistInput input, SpecialistOutput first, List<ToolResult> results) {
        throw new UnsupportedOperationException("written next");
    }
}
