package dev.weft.oauth;

import java.net.URI;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What the user of a device-code sign-in is shown: the page to open on another device and the code to
 * type there (or the page with the code already in it), and until when they may.
 */
public record DevicePrompt(
        URI verificationUri, String userCode, Optional<URI> verificationUriComplete, Instant expiresAt) {
    public DevicePrompt {
        Objects.requireNonNull(verificationUri, "verificationUri");
        Objects.requireNonNull(userCode, "userCode");
        Objects.requireNonNull(verificationUriComplete, "verificationUriComplete");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }
}
