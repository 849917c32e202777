/** Not API: placeholders, schemas and the per-step pipeline. */
@NullMarked
package dev.weft.plan.internal;

import org.jspecify.annotations.NullMarked;
