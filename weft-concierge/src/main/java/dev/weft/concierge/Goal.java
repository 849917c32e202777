package dev.weft.concierge;

import dev.weft.concierge.shop.ShopTools;
import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.util.List;
import java.util.Optional;

/**
 * What a customer wants, as {@code plan_goal} picks it: a sales goal, a support goal, or small talk. Each
 * sales and support goal has a specialist and the tools that specialist may ask for; any other tool is
 * refused ({@code E_TOOL_NOT_ALLOWED}).
 */
public enum Goal {
    FIND_PRODUCT("sales.find_product", List.of(ShopTools.SEARCH, ShopTools.GET_PRODUCT)),
    QUOTE("sales.quote", List.of(ShopTools.SEARCH, ShopTools.GET_PRODUCT, ShopTools.QUOTE)),
    ORDER(
            "sales.order",
            List.of(
                    ShopTools.FIND_BY_EMAIL,
                    ShopTools.FIND_BY_NAME,
                    ShopTools.SEARCH,
                    ShopTools.GET_PRODUCT,
                    ShopTools.QUOTE,
                    ShopTools.PLACE_ORDER)),
    ORDER_STATUS(
            "support.order_status",
            List.of(ShopTools.FIND_BY_EMAIL, ShopTools.FIND_BY_NAME, ShopTools.LIST_ORDERS, ShopTools.GET_ORDER)),
    CANCEL(
            "support.cancel",
            List.of(
                    ShopTools.FIND_BY_EMAIL,
                    ShopTools.FIND_BY_NAME,
                    ShopTools.LIST_ORDERS,
                    ShopTools.GET_ORDER,
                    ShopTools.CANCEL)),
    RETURN(
            "support.return",
            List.of(
                    ShopTools.FIND_BY_EMAIL,
                    ShopTools.FIND_BY_NAME,
                    ShopTools.LIST_ORDERS,
                    ShopTools.GET_ORDER,
                    ShopTools.RETURN)),
    EXCHANGE(
            "support.exchange",
            List.of(
                    ShopTools.FIND_BY_EMAIL,
                    ShopTools.FIND_BY_NAME,
                    ShopTools.LIST_ORDERS,
                    ShopTools.GET_ORDER,
                    ShopTools.GET_PRODUCT,
                    ShopTools.EXCHANGE)),
    CHANGE_ADDRESS(
            "support.change_address",
            List.of(
                    ShopTools.FIND_BY_EMAIL,
                    ShopTools.FIND_BY_NAME,
                    ShopTools.LIST_ORDERS,
                    ShopTools.GET_ORDER,
                    ShopTools.ORDER_ADDRESS,
                    ShopTools.ACCOUNT_ADDRESS)),
    TICKET(
            "support.ticket",
            List.of(
                    ShopTools.FIND_BY_EMAIL,
                    ShopTools.FIND_BY_NAME,
                    ShopTools.LIST_ORDERS,
                    ShopTools.GET_ORDER,
                    ShopTools.TICKET)),
    HUMAN("support.human", List.of(ShopTools.FIND_BY_EMAIL, ShopTools.FIND_BY_NAME, ShopTools.HUMAN)),
    SMALLTALK("smalltalk", List.of());

    private final String id;
    private final List<String> tools;

    Goal(String id, List<String> tools) {
        this.id = id;
        this.tools = tools;
    }

    /** The name callers see: {@code sales.find_product}, {@code support.cancel}, … {@code smalltalk}. */
    public String id() {
        return id;
    }

    /** The tools this goal's specialist may ask for (none for small talk). */
    public List<String> tools() {
        return tools;
    }

    /** Whether a specialist works on it (every goal but small talk). */
    public boolean hasSpecialist() {
        return this != SMALLTALK;
    }

    public boolean isSales() {
        return id.startsWith("sales.");
    }

    public static Optional<Goal> find(String id) {
        for (Goal goal : values()) {
            if (goal.id.equals(id)) {
                return Optional.of(goal);
            }
        }
        return Optional.empty();
    }

    /** @throws WeftException {@code E_BAD_INPUT} for a name that is no goal */
    public static Goal of(String id) {
        return find(id).orElseThrow(() -> new WeftException(ErrorCode.E_BAD_INPUT, "no goal '" + id + "'"));
    }
}
