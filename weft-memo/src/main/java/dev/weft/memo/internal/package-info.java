/** Memo's resolvers, entity lookup and replies: not API. */
@NullMarked
package dev.weft.memo.internal;

import org.jspecify.annotations.NullMarked;
