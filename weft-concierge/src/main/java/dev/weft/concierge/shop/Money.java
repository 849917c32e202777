package dev.weft.concierge.shop;

import java.math.BigDecimal;

/** Amounts of money: kept as whole cents, shown in dollars. Stateless. */
public final class Money {
    private Money() {}

    /** {@code $45.00}; a negative amount {@code -$5.00}. */
    public static String format(long cents) {
        long abs = Math.abs(cents);
        return (cents < 0 ? "-" : "") + "$" + (abs / 100) + "." + String.format("%02d", abs % 100);
    }

    /** The amount as a decimal with two places (45.00), as JSON carries it. */
    public static BigDecimal decimal(long cents) {
        return BigDecimal.valueOf(cents, 2);
    }
}
