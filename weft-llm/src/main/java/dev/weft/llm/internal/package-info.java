/** Not API: the HTTP client, error classification, model calls, JSON extraction and templates. */
@NullMarked
package dev.weft.llm.internal;

import org.jspecify.annotations.NullMarked;
