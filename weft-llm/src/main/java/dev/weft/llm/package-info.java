/**
 * Models for Weft's graphs: which provider and model to use ({@link dev.weft.llm.ModelConfig}), the
 * LangChain4j clients built from it ({@link dev.weft.llm.Model}), the rule-based {@link
 * dev.weft.llm.OfflineModel}, and the prompt, model, parse_json and tools nodes ({@link
 * dev.weft.llm.ModelNodes}).
 */
@NullMarked
package dev.weft.llm;

import org.jspecify.annotations.NullMarked;
