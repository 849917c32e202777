/** The grammars and the resolver behind {@link dev.weft.time.TimeParser}; not API. */
package dev.weft.time.internal;
