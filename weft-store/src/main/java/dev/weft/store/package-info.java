/**
 * Durable {@link dev.weft.core.spi.RunStore}s: SQLite (one file, the default) and PostgreSQL. {@link
 * dev.weft.store.Stores} opens one from a database URL.
 */
@NullMarked
package dev.weft.store;

import org.jspecify.annotations.NullMarked;
