/** {@code weft serve}: Weft's HTTP API, server-sent events, the OpenAI-compatible endpoint and API keys. */
@NullMarked
package dev.weft.server;

import org.jspecify.annotations.NullMarked;
