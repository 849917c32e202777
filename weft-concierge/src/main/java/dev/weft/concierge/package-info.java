/**
 * The concierge of seed 004: a shop's sales and support assistant whose every message runs one compiled
 * ten-node orchestrator graph ({@link dev.weft.concierge.Concierge}), reachable by name as an {@link
 * dev.weft.assistant.Assistant} ({@code concierge}).
 */
@NullMarked
package dev.weft.concierge;

import org.jspecify.annotations.NullMarked;
