/** The {@code weft} command: picocli commands over the runtime, with stable output and exit codes. */
@NullMarked
package dev.weft.cli;

import org.jspecify.annotations.NullMarked;
