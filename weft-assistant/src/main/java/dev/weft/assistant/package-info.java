/**
 * How the command line, the server, MCP and the messaging channels reach an assistant without
 * naming it: an {@link dev.weft.assistant.Assistant} is found by name among the {@link
 * dev.weft.assistant.AssistantProvider}s on the class path, so that a new assistant is a module, not
 * edits across the server and the CLI.
 */
@NullMarked
package dev.weft.assistant;

import org.jspecify.annotations.NullMarked;
