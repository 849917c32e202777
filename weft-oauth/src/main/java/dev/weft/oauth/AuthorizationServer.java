package dev.weft.oauth;

import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.AuthorizationGrant;
import com.nimbusds.oauth2.sdk.AuthorizationRequest;
import com.nimbusds.oauth2.sdk.AuthorizationResponse;
import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.RefreshTokenGrant;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.TokenRevocationRequest;
import com.nimbusds.oauth2.sdk.as.AuthorizationServerMetadata;
import com.nimbusds.oauth2.sdk.auth.ClientAuthentication;
import com.nimbusds.oauth2.sdk.auth.ClientAuthenticationMethod;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.ClientSecretPost;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.device.DeviceAuthorizationGrantError;
import com.nimbusds.oauth2.sdk.device.DeviceAuthorizationRequest;
import com.nimbusds.oauth2.sdk.device.DeviceAuthorizationResponse;
import com.nimbusds.oauth2.sdk.device.DeviceAuthorizationSuccessResponse;
import com.nimbusds.oauth2.sdk.device.DeviceCodeGrant;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.oauth2.sdk.token.AccessToken;
import com.nimbusds.oauth2.sdk.token.RefreshToken;
import com.nimbusds.oauth2.sdk.token.Tokens;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.sun.net.httpserver.HttpServer;
import dev.weft.core.ErrorCode;
import dev.weft.core.TransientException;
import dev.weft.core.WeftException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import net.minidev.json.JSONObject;
import org.jspecify.annotations.Nullable;

/**
 * A provider's authorization server as the user's own client uses it: its endpoints read from its
 * discovery document, the two ways to sign in (a browser coming back to a loopback redirect, or a code
 * typed on another device), the refresh of a grant and its revocation. Every exchange is Nimbus OAuth
 * 2.0 SDK's. Thread-safe; each sign-in has its own listener and state.
 */
public final class AuthorizationServer {
    /** The device-code flow's interval when the server names none (RFC 8628 §3.2). */
    private static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);
    /** How much longer to wait after a {@code slow_down} (RFC 8628 §3.5). */
    private static final Duration SLOW_DOWN = Duration.ofSeconds(5);
    /** An access token's lifetime when the token endpoint leaves {@code expires_in} out. */
    private static final Duration ASSUMED_LIFETIME = Duration.ofHours(1);

    private static final int TIMEOUT_MILLIS = 15_000;

    /** Waits between two polls of the device-code flow; a test's advances its clock instead. */
    @FunctionalInterface
    public interface Pause {
        void pause(Duration duration) throws InterruptedException;

        /** Sleeps the thread. */
        static Pause sleeping() {
            return duration -> Thread.sleep(duration.toMillis());
        }
    }

    private final OAuthClient client;
    private final AuthorizationServerMetadata metadata;
    private final Clock clock;

    private AuthorizationServer(OAuthClient client, AuthorizationServerMetadata metadata, Clock clock) {
        this.client = client;
        this.metadata = metadata;
        this.clock = clock;
    }

    /**
     * The server of {@code client}'s issuer, its endpoints read from {@code
     * <issuer>/.well-known/openid-configuration}.
     *
     * @throws WeftException {@code E_AUTH_FAILED} when the document cannot be read or names no token
     *     endpoint
     */
    public static AuthorizationServer discover(OAuthClient client, Clock clock) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(clock, "clock");
        String issuer = client.issuer().toString().replaceAll("/+$", "");
        URI url = URI.create(issuer + "/.well-known/openid-configuration");
        HTTPResponse response = send(new HTTPRequest(HTTPRequest.Method.GET, url), "discovery at " + url);
        if (!response.indicatesSuccess()) {
            throw new WeftException(
                    ErrorCode.E_AUTH_FAILED,
                    "the discovery document " + url + " answered HTTP " + response.getStatusCode() + "; is "
                            + client.provider().issuerVariable() + " right?");
        }
        try {
            AuthorizationServerMetadata metadata = AuthorizationServerMetadata.parse(response.getBodyAsJSONObject());
            if (metadata.getTokenEndpointURI() == null) {
                throw new WeftException(
                        ErrorCode.E_AUTH_FAILED, "the discovery document " + url + " names no token_endpoint");
            }
            return new AuthorizationServer(client, metadata, clock);
        } catch (ParseException e) {
            throw new WeftException(
                    ErrorCode.E_AUTH_FAILED, "the discovery document " + url + " cannot be read: " + e.getMessage());
        }
    }

    public OAuthClient client() {
        return client;
    }

    /** The page a sign-in in a browser starts at. */
    public URI authorizationEndpoint() {
        return required(metadata.getAuthorizationEndpointURI(), "authorization_endpoint");
    }

    /** Where a grant's refresh token is revoked, when the provider has such an endpoint (Microsoft has none). */
    public Optional<URI> revocationEndpoint() {
        return Optional.ofNullable(metadata.getRevocationEndpointURI());
    }

    /**
     * Signs in with a browser: listens on {@code 127.0.0.1} on a free port, gives {@code open} the URL
     * of the consent page (with a PKCE challenge and a fresh {@code state}), and waits up to {@code
     * wait} for the browser to come back with a code, which it exchanges with the PKCE verifier.
     *
     * @throws SignInFailedException {@code E_AUTH_FAILED} when the user refused, nobody came back in time,
     *     the redirect carries another {@code state}, or the provider refused the code
     */
    public Grant signInWithBrowser(List<String> scopes, Consumer<URI> open, Duration wait) {
        HttpServer listener;
        try {
            listener = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        } catch (IOException e) {
            throw new WeftException(
                    ErrorCode.E_AUTH_FAILED, "cannot listen on 127.0.0.1 for the sign-in's redirect: " + e);
        }
        URI redirect = URI.create("http://127.0.0.1:" + listener.getAddress().getPort() + "/");
        CompletableFuture<URI> cameBack = new CompletableFuture<>();
        listener.createContext("/", exchange -> {
            try (exchange) {
                boolean callback = exchange.getRequestURI().getPath().equals("/")
                        && exchange.getRequestURI().getRawQuery() != null;
                byte[] page = (callback
                                ? "<!doctype html><title>Weft</title><p>Signed in. You may close this window and go back to"
                                        + " the terminal.</p>"
                                : "<!doctype html><title>Weft</title><p>Nothing here.</p>")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
                exchange.sendResponseHeaders(callback ? 200 : 404, page.length);
                try (OutputStream body = exchange.getResponseBody()) {
                    body.write(page);
                }
                if (callback) {
                    cameBack.complete(redirect.resolve(exchange.getRequestURI()));
                }
            }
        });
        listener.start();
        try {
            State state = new State();
            CodeVerifier verifier = new CodeVerifier();
            AuthorizationRequest.Builder request = new AuthorizationRequest.Builder(
                            new ResponseType(ResponseType.Value.CODE), new ClientID(client.clientId()))
                    .scope(scope(scopes))
                    .redirectionURI(redirect)
                    .state(state)
                    .codeChallenge(verifier, CodeChallengeMethod.S256)
                    .endpointURI(authorizationEndpoint());
            if (client.provider() == OAuthProvider.GOOGLE) {
                // Google gives a refresh token only when asked for offline access, and again only with consent.
                request.customParameter("access_type", "offline").customParameter("prompt", "consent");
            }
            open.accept(request.build().toURI());
            URI back = await(cameBack, wait);
            AuthorizationResponse response = AuthorizationResponse.parse(back);
            if (!state.equals(response.getState())) {
                throw new SignInFailedException(
                        "the browser came back with another sign-in's state; nothing was kept, sign in again");
            }
            if (!response.indicatesSuccess()) {
                throw new SignInFailedException(
                        "the sign-in at " + client.provider().id() + " was refused: "
                                + describe(response.toErrorResponse().getErrorObject()));
            }
            AuthorizationCode code = response.toSuccessResponse().getAuthorizationCode();
            if (code == null) {
                throw new SignInFailedException("the browser came back without a code; sign in again");
            }
            return grant(new AuthorizationCodeGrant(code, redirect, verifier), scopes, Optional.empty());
        } catch (ParseException e) {
            throw new SignInFailedException(
                    "the browser came back with a redirect that cannot be read: " + e.getMessage());
        } finally {
            listener.stop(0);
        }
    }

    /**
     * Signs in with a code typed on another device (RFC 8628): gives {@code show} the page and the code,
     * then polls the token endpoint at the interval the server asks for (longer after each {@code
     * slow_down}) until the user approved or denied it, or the code expired.
     *
     * @throws SignInFailedException {@code E_AUTH_FAILED} when the user denied it, the code expired, the
     *     provider has no device flow, or refuses it for these scopes
     */
    public Grant signInWithDeviceCode(List<String> scopes, Consumer<DevicePrompt> show, Pause pause) {
        URI endpoint = metadata.getDeviceAuthorizationEndpointURI();
        if (endpoint == null) {
            throw new SignInFailedException(client.provider().id()
                    + " names no device_authorization_endpoint: sign in with a browser instead (without --device)");
        }
        HTTPResponse http = send(
                new DeviceAuthorizationRequest.Builder(new ClientID(client.clientId()))
                        .scope(scope(scopes))
                        .endpointURI(endpoint)
                        .build()
                        .toHTTPRequest(),
                "the device authorization endpoint");
        DeviceAuthorizationSuccessResponse started;
        try {
            if (!http.indicatesSuccess()) {
                throw new SignInFailedException(client.provider().id() + " refused to start a device sign-in: "
                        + describe(DeviceAuthorizationResponse.parse(http)
                                .toErrorResponse()
                                .getErrorObject())
                        + " (Google allows the device flow for a few scopes only: sign in with a browser instead)");
            }
            JSONObject body = http.getBodyAsJSONObject();
            if (!body.containsKey("verification_uri") && body.get("verification_url") != null) {
                // Google still names it as the drafts of RFC 8628 did
                body.put("verification_uri", body.get("verification_url"));
            }
            started = DeviceAuthorizationSuccessResponse.parse(body);
        } catch (ParseException e) {
            throw new SignInFailedException("the device authorization answer cannot be read: " + e.getMessage());
        }
        Instant expiresAt = clock.instant().plusSeconds(started.getLifetime());
        show.accept(new DevicePrompt(
                started.getVerificationURI(),
                started.getUserCode().getValue(),
                Optional.ofNullable(started.getVerificationURIComplete()),
                expiresAt));
        Duration interval = started.getInterval() > 0 ? Duration.ofSeconds(started.getInterval()) : DEFAULT_INTERVAL;
        DeviceCodeGrant grant = new DeviceCodeGrant(started.getDeviceCode());
        while (true) {
            try {
                pause.pause(interval);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SignInFailedException("the device sign-in was interrupted; nothing was kept");
            }
            if (!clock.instant().isBefore(expiresAt)) {
                throw expired();
            }
            TokenResponse response = tokenResponse(grant);
            if (response.indicatesSuccess()) {
                return grant(response, scopes, Optional.empty());
            }
            ErrorObject error = response.toErrorResponse().getErrorObject();
            if (DeviceAuthorizationGrantError.AUTHORIZATION_PENDING.equals(error)) {
                continue;
            }
            if (DeviceAuthorizationGrantError.SLOW_DOWN.equals(error)) {
                interval = interval.plus(SLOW_DOWN);
                continue;
            }
            if (com.nimbusds.oauth2.sdk.OAuth2Error.ACCESS_DENIED.equals(error)) {
                throw new SignInFailedException(
                        "the sign-in at " + client.provider().id() + " was denied; nothing was kept");
            }
            if (DeviceAuthorizationGrantError.EXPIRED_TOKEN.equals(error)) {
                throw expired();
            }
            throw new SignInFailedException("the device sign-in was refused: " + describe(error));
        }
    }

    /**
     * {@code grant} with a new access token (and the new refresh token, when the server rotates them).
     *
     * @throws GrantRevokedException {@code E_AUTH_REVOKED} when the server answers {@code invalid_grant}
     * @throws WeftException {@code E_AUTH_FAILED} when it refuses otherwise (transient when it cannot be reached)
     */
    public Grant refresh(Grant grant) {
        TokenResponse response = tokenResponse(new RefreshTokenGrant(new RefreshToken(grant.refreshToken())));
        if (!response.indicatesSuccess()) {
            ErrorObject error = response.toErrorResponse().getErrorObject();
            if ("invalid_grant".equals(error.getCode())) {
                throw new GrantRevokedException(client.provider().id() + " no longer honours the sign-in of "
                        + grant.account() + " (" + describe(error) + ")");
            }
            throw new WeftException(
                    ErrorCode.E_AUTH_FAILED,
                    client.provider().id() + " refused to refresh the sign-in of " + grant.account() + ": "
                            + describe(error));
        }
        Tokens tokens = response.toSuccessResponse().getTokens();
        RefreshToken rotated = tokens.getRefreshToken();
        return grant.refreshed(
                rotated == null ? grant.refreshToken() : rotated.getValue(),
                tokens.getAccessToken().getValue(),
                expiry(tokens.getAccessToken()));
    }

    /**
     * Revokes {@code grant}'s refresh token (RFC 7009) where the provider can; whether it was revoked
     * there (false for a provider with no revocation endpoint or one that refused).
     */
    public boolean revoke(Grant grant) {
        Optional<URI> endpoint = revocationEndpoint();
        if (endpoint.isEmpty()) {
            return false;
        }
        RefreshToken token = new RefreshToken(grant.refreshToken());
        TokenRevocationRequest request = authentication()
                .map(auth -> new TokenRevocationRequest(endpoint.get(), auth, token))
                .orElseGet(() -> new TokenRevocationRequest(endpoint.get(), new ClientID(client.clientId()), token));
        return send(request.toHTTPRequest(), "the revocation endpoint").indicatesSuccess();
    }

    private Grant grant(AuthorizationGrant authorization, List<String> scopes, Optional<String> account) {
        TokenResponse response = tokenResponse(authorization);
        if (!response.indicatesSuccess()) {
            throw new SignInFailedException(client.provider().id() + " refused the sign-in's code: "
                    + describe(response.toErrorResponse().getErrorObject()));
        }
        return grant(response, scopes, account);
    }

    private Grant grant(TokenResponse response, List<String> scopes, Optional<String> account) {
        Tokens tokens = response.toSuccessResponse().getTokens();
        if (tokens.getRefreshToken() == null) {
            throw new SignInFailedException(client.provider().id()
                    + " gave no refresh token, so the account could not stay signed in; sign in again (and allow"
                    + " offline access)");
        }
        AccessToken access = tokens.getAccessToken();
        String scope = access.getScope() == null
                ? String.join(" ", scopes)
                : access.getScope().toString();
        return new Grant(
                client.provider(),
                account.orElseGet(() -> account(response)),
                scope,
                tokens.getRefreshToken().getValue(),
                access.getValue(),
                expiry(access));
    }

    /**
     * The account the ID token names. Its signature is not checked: it came straight from the token
     * endpoint over the connection this client opened, which OpenID Connect Core §3.1.3.7 accepts in place
     * of a signature, and it only labels the account.
     */
    private String account(TokenResponse response) {
        if (response instanceof OIDCTokenResponse oidc && oidc.getOIDCTokens().getIDToken() != null) {
            try {
                var claims = oidc.getOIDCTokens().getIDToken().getJWTClaimsSet();
                for (String claim : List.of("email", "preferred_username", "upn")) {
                    String value = claims.getStringClaim(claim);
                    if (value != null && !value.isBlank()) {
                        return value;
                    }
                }
                if (claims.getSubject() != null) {
                    return claims.getSubject();
                }
            } catch (java.text.ParseException e) {
                // an unreadable ID token labels nothing; the account stays unnamed
            }
        }
        return client.provider().id() + " account";
    }

    private Instant expiry(AccessToken token) {
        Duration lifetime = token.getLifetime() > 0 ? Duration.ofSeconds(token.getLifetime()) : ASSUMED_LIFETIME;
        return clock.instant().plus(lifetime);
    }

    private TokenResponse tokenResponse(AuthorizationGrant grant) {
        URI endpoint = metadata.getTokenEndpointURI();
        TokenRequest request = authentication()
                .map(auth -> new TokenRequest.Builder(endpoint, auth, grant).build())
                .orElseGet(() -> new TokenRequest.Builder(endpoint, new ClientID(client.clientId()), grant).build());
        HTTPResponse http = send(request.toHTTPRequest(), "the token endpoint");
        try {
            return OIDCTokenResponseParser.parse(http);
        } catch (ParseException e) {
            throw new WeftException(
                    ErrorCode.E_AUTH_FAILED,
                    "the token endpoint's answer (HTTP " + http.getStatusCode() + ") cannot be read: "
                            + e.getMessage());
        }
    }

    /**
     * How the client proves itself, when it has a secret: in the request's body with its id
     * (client_secret_post, as Google's and Microsoft's token requests are documented), or with HTTP Basic
     * when the discovery document names only that.
     */
    private Optional<ClientAuthentication> authentication() {
        return client.clientSecret().map(secret -> {
            ClientID id = new ClientID(client.clientId());
            List<ClientAuthenticationMethod> methods = metadata.getTokenEndpointAuthMethods();
            boolean basicOnly = methods != null
                    && methods.contains(ClientAuthenticationMethod.CLIENT_SECRET_BASIC)
                    && !methods.contains(ClientAuthenticationMethod.CLIENT_SECRET_POST);
            return basicOnly
                    ? new ClientSecretBasic(id, new Secret(secret))
                    : new ClientSecretPost(id, new Secret(secret));
        });
    }

    private SignInFailedException expired() {
        return new SignInFailedException(
                "the device code expired before the sign-in was approved; nothing was kept, run"
                        + " the command again");
    }

    private static HTTPResponse send(HTTPRequest request, String what) {
        request.setConnectTimeout(TIMEOUT_MILLIS);
        request.setReadTimeout(TIMEOUT_MILLIS);
        try {
            return request.send();
        } catch (IOException e) {
            throw new TransientException(
                    ErrorCode.E_AUTH_FAILED,
                    "cannot reach " + what + " (" + request.getURI().getHost() + "): " + e,
                    e);
        }
    }

    private static URI await(CompletableFuture<URI> cameBack, Duration wait) {
        try {
            return cameBack.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new SignInFailedException("nobody signed in within " + wait.toMinutes()
                    + " minutes; nothing was kept, run the command again");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SignInFailedException("the sign-in was interrupted; nothing was kept");
        } catch (ExecutionException e) {
            throw new SignInFailedException("the sign-in's redirect failed: " + e.getCause());
        }
    }

    private static Scope scope(List<String> scopes) {
        return new Scope(scopes.toArray(String[]::new));
    }

    private static String describe(ErrorObject error) {
        return error.getCode() + (error.getDescription() == null ? "" : " (" + error.getDescription() + ")");
    }

    private static URI required(@Nullable URI uri, String name) {
        if (uri == null) {
            throw new WeftException(ErrorCode.E_AUTH_FAILED, "the provider's discovery document names no " + name);
        }
        return uri;
    }
}
