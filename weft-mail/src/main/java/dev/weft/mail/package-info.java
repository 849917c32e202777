/**
 * Mail plumbing the assistants share: what an SMTP submission knows about whether the server may have
 * taken the mail.
 */
@NullMarked
package dev.weft.mail;

import org.jspecify.annotations.NullMarked;
