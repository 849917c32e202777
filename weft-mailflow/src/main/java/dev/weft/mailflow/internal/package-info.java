/** Not API: the venue agent's node types, its offline rules and replies, HTML and quote handling, and the mailbox. */
@NullMarked
package dev.weft.mailflow.internal;

import org.jspecify.annotations.NullMarked;
