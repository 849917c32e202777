/** Not API: the standard node types and CEL glue. */
@NullMarked
package dev.weft.workflow.internal;

import org.jspecify.annotations.NullMarked;
