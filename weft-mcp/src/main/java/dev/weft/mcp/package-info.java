/**
 * The Model Context Protocol both ways. As a server: {@link dev.weft.mcp.AssistantTools} (every
 * assistant's tools and the user's runs) served by {@link dev.weft.mcp.McpServers} over stdio or
 * Streamable HTTP. As a client: registered servers ({@link dev.weft.mcp.McpRegistry}), their tools as
 * plan tools ({@link dev.weft.mcp.McpToolAdapter}) and the workflow node type {@code mcp}.
 */
@NullMarked
package dev.weft.mcp;

import org.jspecify.annotations.NullMarked;
