/**
 * How the offline planner reads one request once its intent is known: one small reader per
 * capability ({@link dev.weft.memo.internal.planning.CalendarRequests}, {@link
 * dev.weft.memo.internal.planning.TaskRequests}, {@link dev.weft.memo.internal.planning.ListRequests},
 * {@link dev.weft.memo.internal.planning.EmailRequests}, {@link
 * dev.weft.memo.internal.planning.MemoryRequests}, {@link
 * dev.weft.memo.internal.planning.ChatRequests}), each filling the step's constraints from the
 * request's words and times ({@link dev.weft.memo.internal.planning.Times}); and how a message splits
 * into requests ({@link dev.weft.memo.internal.planning.Parts}).
 */
@NullMarked
package dev.weft.memo.internal.planning;

import org.jspecify.annotations.NullMarked;
