/** What a module plugs into workflows: node types. */
@NullMarked
package dev.weft.workflow.spi;

import org.jspecify.annotations.NullMarked;
