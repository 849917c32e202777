/**
 * Memo, the bilingual Hebrew/English personal assistant (seeds 000–002): its data, tools, planners
 * and resolvers, on the plan runtime.
 */
@NullMarked
package dev.weft.memo;

import org.jspecify.annotations.NullMarked;
