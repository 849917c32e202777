package dev.weft.concierge;

import dev.weft.assistant.Assistant;
import dev.weft.assistant.AssistantEnvironment;
import dev.weft.assistant.AssistantProvider;
import dev.weft.concierge.shop.ShopPolicy;

/**
 * Opens the concierge for a process: its tables brought up to date and its graph compiled (a graph that
 * does not compile stops the process here); with the environment's model when there is one, else offline;
 * verifying customers as the environment's {@code WEFT_SHOP_*} settings say (a wrong one stops it here).
 */
public final class ConciergeAssistantProvider implements AssistantProvider {
    @Override
    public String name() {
        return Concierge.NAME;
    }

    @Override
    public Assistant open(AssistantEnvironment environment) {
        ShopPolicy policy = ShopPolicy.fromEnvironment(environment.env());
        return new ConciergeAssistant(Concierge.open(environment.store(), environment.model(), policy));
    }
}
