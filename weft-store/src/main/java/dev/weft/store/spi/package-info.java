/** What modules with tables of their own plug into the store: the columns that hold sealed secrets. */
@NullMarked
package dev.weft.store.spi;

import org.jspecify.annotations.NullMarked;
