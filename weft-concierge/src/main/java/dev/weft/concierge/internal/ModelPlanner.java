package dev.weft.concierge.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.concierge.spi.Planner;
import dev.weft.concierge.spi.PlannerInput;
import dev.weft.core.StepScope;
import dev.weft.llm.Model;
import java.util.Objects;

/** The planner that asks a model (structured output). */
public final class ModelPlanner implements Planner {
    private final Model model;

    public ModelPlanner(Model model) {
        this.model = Objects.requireNonNull(model, "model");
    }

    @Override
    public String name() {
        return model.label();
    }

    @Override
    public ObjectNode plan(StepScope step, PlannerInput input) {
        throw new UnsupportedOperationException("written next");
    }
}
