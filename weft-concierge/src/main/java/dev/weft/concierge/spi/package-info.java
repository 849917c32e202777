/**
 * What plugs into the concierge's orchestrator: the {@link dev.weft.concierge.spi.Planner} that picks a
 * goal for each message, and the {@link dev.weft.concierge.spi.Specialist}s that work on a goal in two
 * passes (tools in the first, an answer from their results in the second). The concierge has offline
 * ones (rules and templates in English and Hebrew) and ones that ask a model.
 */
@NullMarked
package dev.weft.concierge.spi;

import org.jspecify.annotations.NullMarked;
