/**
 * Plans of steps (seed 000) run on the graph runtime: a plan becomes a graph with one node per
 * step, scheduled by dataflow; each step goes through the pipeline resolve → prepare → validate →
 * approve → execute → commit (seed 001); a join summarises what succeeded and what failed.
 */
@NullMarked
package dev.weft.plan;

import org.jspecify.annotations.NullMarked;
