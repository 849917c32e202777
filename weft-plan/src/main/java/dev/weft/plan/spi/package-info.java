/** What others plug into the plan runtime. */
@NullMarked
package dev.weft.plan.spi;

import org.jspecify.annotations.NullMarked;
