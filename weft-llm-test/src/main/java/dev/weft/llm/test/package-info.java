/**
 * Test support for model calls: {@link dev.weft.llm.test.FakeModelServer}, a local HTTP server that
 * speaks OpenAI's chat-completions API and Anthropic's messages API with canned replies.
 */
@NullMarked
package dev.weft.llm.test;

import org.jspecify.annotations.NullMarked;
