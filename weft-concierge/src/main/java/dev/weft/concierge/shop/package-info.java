/**
 * The shop the concierge serves, in the run store's database: its catalog (products and their variants,
 * with price and stock), customers, orders and their items, and what was done to them (returns,
 * exchanges, refunds, tickets); the tools that read and change it, each enforcing the shop's policy; and
 * the demo shop {@code weft concierge seed} loads.
 */
@NullMarked
package dev.weft.concierge.shop;

import org.jspecify.annotations.NullMarked;
