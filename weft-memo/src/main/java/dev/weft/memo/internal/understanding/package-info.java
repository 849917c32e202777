/**
 * How Memo understands what a message asks for without a model: an intent classifier (a
 * maximum-entropy model over words, word pairs, Hebrew stems and letter groups) trained when the
 * module is built from sentences generated out of templates in English and Hebrew, beside the
 * deterministic readers that fill each intent's slots.
 */
@NullMarked
package dev.weft.memo.internal.understanding;

import org.jspecify.annotations.NullMarked;
