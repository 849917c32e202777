/** Run stores that ship with the core: the in-memory one. Durable stores live in {@code weft-store}. */
@NullMarked
package dev.weft.core.store;

import org.jspecify.annotations.NullMarked;
