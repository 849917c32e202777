package dev.weft.oauth;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The user's own OAuth client at a provider: the issuer whose discovery document names the endpoints,
 * the client id, and the client secret when the client has one (a Google "Desktop app" has one, a
 * Microsoft public client has none).
 */
public record OAuthClient(OAuthProvider provider, URI issuer, String clientId, Optional<String> clientSecret) {
    public OAuthClient {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(issuer, "issuer");
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(clientSecret, "clientSecret");
        if (clientId.isBlank()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "the " + provider.id() + " client id is empty");
        }
    }

    /**
     * The client {@code environment} names for {@code provider}: {@code WEFT_<PROVIDER>_ISSUER} (else
     * the provider's own), {@code WEFT_<PROVIDER>_CLIENT_ID} and {@code WEFT_<PROVIDER>_CLIENT_SECRET}.
     *
     * @throws WeftException {@code E_BAD_INPUT} when the client id is not set or the issuer is not an
     *     http(s) URL
     */
    public static OAuthClient fromEnvironment(OAuthProvider provider, Map<String, String> environment) {
        String id = environment.getOrDefault(provider.clientIdVariable(), "").trim();
        if (id.isEmpty()) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    provider.clientIdVariable() + " is not set: create your own OAuth client at " + provider.id()
                            + " and set " + provider.clientIdVariable() + " (and " + provider.clientSecretVariable()
                            + " when it has a secret); docs/oauth.md says how step by step");
        }
        String issuerText =
                environment.getOrDefault(provider.issuerVariable(), "").trim();
        URI issuer = issuerText.isEmpty() ? provider.defaultIssuer() : parseIssuer(provider, issuerText);
        String secret =
                environment.getOrDefault(provider.clientSecretVariable(), "").trim();
        return new OAuthClient(provider, issuer, id, secret.isEmpty() ? Optional.empty() : Optional.of(secret));
    }

    private static URI parseIssuer(OAuthProvider provider, String text) {
        try {
            URI uri = new URI(text);
            if (uri.getHost() != null && ("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))) {
                return uri;
            }
        } catch (java.net.URISyntaxException e) {
            // said below
        }
        throw new WeftException(
                ErrorCode.E_BAD_INPUT, provider.issuerVariable() + " '" + text + "' is not an http(s) URL");
    }

    /** The client without its secret, as it can be shown. */
    @Override
    public String toString() {
        return provider.id() + " client " + clientId + " at " + issuer;
    }
}
