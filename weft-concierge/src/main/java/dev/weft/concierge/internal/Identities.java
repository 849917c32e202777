package dev.weft.concierge.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.concierge.shop.ShopTools;
import dev.weft.concierge.spi.ToolResult;

/**
 * What a verification tool's result changes in a conversation's state, whoever asked for it (the offline
 * specialist or a model): the identity claimed is dropped either way, and the customer is verified only on
 * the tool's word. Stateless.
 */
final class Identities {
    private Identities() {}

    static boolean isVerification(ToolResult result) {
        return result.name().equals(ShopTools.FIND_BY_EMAIL) || result.name().equals(ShopTools.FIND_BY_NAME);
    }

    /** Records {@code result} (a verification's) in {@code updates}. */
    static void record(ToolResult result, ObjectNode updates) {
        ObjectNode request = updates.withObjectProperty("request");
        request.putNull("email");
        request.putNull("name");
        request.putNull("postcode");
        if (result.ok()) {
            ObjectNode customer = updates.putObject("customer");
            customer.put("verified", true);
            customer.put("id", result.result().path("customerId").asText());
            customer.put("name", result.result().path("name").asText());
            customer.put("method", result.result().path("method").asText());
        } else {
            boolean codeSent = result.error()
                    .map(error -> error.path("reason").asText().equals("code_sent"))
                    .orElse(false);
            updates.put("awaiting", codeSent ? "code" : "identity");
        }
    }
}
