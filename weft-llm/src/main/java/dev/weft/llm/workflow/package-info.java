/** The {@code agent} workflow node type. */
@NullMarked
package dev.weft.llm.workflow;

import org.jspecify.annotations.NullMarked;
