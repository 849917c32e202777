package dev.weft.concierge;

import dev.weft.assistant.Assistant;
import dev.weft.assistant.AssistantEnvironment;
import dev.weft.assistant.AssistantProvider;

/**
 * Opens the concierge for a process: its tables brought up to date and its graph compiled (a graph that
 * does not compile stops the process here); with the environment's model when there is one, else offline.
 */
public final class ConciergeAssistantProvider implements AssistantProvider {
    @Override
    public String name() {
        return Concierge.NAME;
    }

    @Override
    public Assistant open(AssistantEnvironment environment) {
        Concierge concierge = environment
                .model()
                .map(model -> Concierge.open(environment.store(), model))
                .orElseGet(() -> Concierge.open(environment.store()));
        return new ConciergeAssistant(concierge);
    }
}
