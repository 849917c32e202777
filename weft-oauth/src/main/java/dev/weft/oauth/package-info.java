/**
 * Sign-in with OAuth 2.0 to the accounts people have (Google, Microsoft 365), on Nimbus OAuth 2.0 SDK:
 * discovery of the provider's endpoints, the authorization code with PKCE on a loopback redirect, the
 * device-code flow, access tokens refreshed before they expire, a revoked grant told apart from a
 * failure, and revocation when an account is disconnected.
 */
@NullMarked
package dev.weft.oauth;

import org.jspecify.annotations.NullMarked;
