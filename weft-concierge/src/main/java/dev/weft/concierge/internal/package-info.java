/** The concierge's inner parts: the offline planner and specialists, their replies, the state's schema and merging. */
@NullMarked
package dev.weft.concierge.internal;

import org.jspecify.annotations.NullMarked;
