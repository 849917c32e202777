/** The MCP SDK's JSON and schema plumbing on Weft's libraries; not API. */
@NullMarked
package dev.weft.mcp.internal;

import org.jspecify.annotations.NullMarked;
