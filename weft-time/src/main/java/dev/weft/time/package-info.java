/**
 * Time expressions in English and Hebrew, resolved to exact instants, intervals and recurrences.
 *
 * <p>Start with {@link dev.weft.time.TimeParser#create()}. Its one dependency is ICU4J, for the
 * Hebrew calendar; its conventions are listed on {@link dev.weft.time.TimeParser}.
 */
@NullMarked
package dev.weft.time;

import org.jspecify.annotations.NullMarked;
