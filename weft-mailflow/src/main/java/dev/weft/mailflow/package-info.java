/**
 * The email agent of seed 003: organizations and their venues, workflow templates stored as rows and
 * compiled to Weft graphs, email normalization and filters, exactly one run per email, and the venue
 * agent that answers booking inquiries in the sender's language.
 */
@NullMarked
package dev.weft.mailflow;

import org.jspecify.annotations.NullMarked;
