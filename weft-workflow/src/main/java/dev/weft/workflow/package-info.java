/** Workflows as data: seed 003's stored graphs as JSON files, compiled to weft-core graphs. */
@NullMarked
package dev.weft.workflow;

import org.jspecify.annotations.NullMarked;
