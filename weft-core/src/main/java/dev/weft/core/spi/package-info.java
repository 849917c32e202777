/** What other modules plug into the runtime: the store that holds runs, steps, events and checkpoints. */
@NullMarked
package dev.weft.core.spi;

import org.jspecify.annotations.NullMarked;
