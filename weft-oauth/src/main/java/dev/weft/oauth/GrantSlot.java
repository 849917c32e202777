package dev.weft.oauth;

/** Where a signed-in account's grant is kept between uses (encrypted at rest by the implementation). */
public interface GrantSlot {
    /** The grant as last kept. */
    Grant read();

    /** Keeps {@code refreshed} in place of the grant read. */
    void write(Grant refreshed);
}
