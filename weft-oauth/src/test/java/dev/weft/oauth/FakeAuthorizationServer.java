package dev.weft.oauth;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.weft.core.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * An OAuth 2.0 authorization server at the wire, on the JDK's HTTP server on a free port of the
 * loopback, speaking what Google's and Microsoft's speak: a discovery document, an authorization
 * endpoint that redirects back with a code (or {@code access_denied}), a token endpoint that checks the
 * client and the PKCE verifier and answers the authorization-code, refresh-token and device-code grants
 * ({@code authorization_pending}, {@code slow_down}, {@code access_denied}, {@code expired_token}), a
 * device authorization endpoint and a revocation endpoint. Access tokens live as long as the test says,
 * by the test's clock; {@link #admits} is what a resource server guarded by it checks. Thread-safe.
 */
public final class FakeAuthorizationServer implements AutoCloseable {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] ID_TOKEN_KEY =
            "the fake authorization server's HS256 key, 32+ bytes".getBytes(StandardCharsets.UTF_8);

    private record PendingCode(String challenge, String redirect, String scope) {}

    private enum DeviceState {
        PENDING,
        APPROVED,
        DENIED
    }

    private record Device(String userCode, String scope, Instant expiresAt) {}

    private final HttpServer http;
    private final String clientId;
    private final Optional<String> clientSecret;
    private final String email;
    private final Clock clock;
    private volatile Duration accessTokenLifetime = Duration.ofHours(1);
    private final AtomicBoolean denyNextAuthorization = new AtomicBoolean();
    private final AtomicBoolean verificationUrl = new AtomicBoolean();
    private final AtomicBoolean secretWithBasicOnly = new AtomicBoolean();
    private final List<String> clientAuthentications = new CopyOnWriteArrayList<>();
    private final AtomicInteger slowDowns = new AtomicInteger();
    private final AtomicInteger refreshes = new AtomicInteger();
    private final AtomicInteger polls = new AtomicInteger();
    private final Map<String, PendingCode> codes = new ConcurrentHashMap<>();
    private final Map<String, Instant> accessTokens = new ConcurrentHashMap<>();
    private final Map<String, String> accessTokenGrant = new ConcurrentHashMap<>();
    private final Set<String> refreshTokens = ConcurrentHashMap.newKeySet();
    private final Map<String, Device> devices = new ConcurrentHashMap<>();
    private final Map<String, DeviceState> deviceStates = new ConcurrentHashMap<>();
    private final List<Consumer<String>> issued = new CopyOnWriteArrayList<>();
    private final List<String> revoked = new CopyOnWriteArrayList<>();

    private FakeAuthorizationServer(
            HttpServer http, String clientId, Optional<String> clientSecret, String email, Clock clock) {
        this.http = http;
        this.clientId = clientId;
        this.clientSecret = clientSecret;
        this.email = email;
        this.clock = clock;
    }

    /**
     * A server that knows one client ({@code clientId}, with {@code clientSecret} when it has one) and
     * signs in one account, {@code email}; token lifetimes by {@code clock}.
     */
    public static FakeAuthorizationServer start(
            String clientId, Optional<String> clientSecret, String email, Clock clock) {
        try {
            HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
            FakeAuthorizationServer server = new FakeAuthorizationServer(http, clientId, clientSecret, email, clock);
            http.createContext("/.well-known/openid-configuration", server::discovery);
            http.createContext("/authorize", server::authorize);
            http.createContext("/token", server::token);
            http.createContext("/device", server::device);
            http.createContext("/revoke", server::revoke);
            http.start();
            return server;
        } catch (IOException e) {
            throw new AssertionError("cannot start the fake authorization server", e);
        }
    }

    /** The issuer, e.g. {@code http://127.0.0.1:41234}. */
    public URI issuer() {
        return URI.create("http://127.0.0.1:" + http.getAddress().getPort());
    }

    /** How long access tokens issued from now on live. */
    public void accessTokenLifetime(Duration lifetime) {
        this.accessTokenLifetime = lifetime;
    }

    /** Calls {@code listener} with every access token issued from now on (a mail server's password to rotate). */
    public void onAccessToken(Consumer<String> listener) {
        issued.add(listener);
    }

    /** Whether {@code accessToken} is one this server issued, not expired by the clock and not revoked. */
    public boolean admits(String accessToken) {
        Instant expiry = accessTokens.get(accessToken);
        return expiry != null
                && clock.instant().isBefore(expiry)
                && refreshTokens.contains(accessTokenGrant.get(accessToken));
    }

    /** The user refuses the next sign-in in the browser. */
    public void denyNextAuthorization() {
        denyNextAuthorization.set(true);
    }

    /** Takes the client's secret with HTTP Basic only from now on, and says so in its discovery document. */
    public void takeTheSecretWithBasicOnly() {
        secretWithBasicOnly.set(true);
    }

    /** How the client proved itself at each request: {@code basic}, {@code post} or {@code none}. */
    public List<String> clientAuthentications() {
        return List.copyOf(clientAuthentications);
    }

    /** Names the verification page {@code verification_url} from now on, as Google's device endpoint does. */
    public void nameVerificationUrlAsGoogleDoes() {
        verificationUrl.set(true);
    }

    /** The next {@code count} device-code polls are told to slow down. */
    public void slowDown(int count) {
        slowDowns.set(count);
    }

    /** The user types {@code userCode} on the verification page and approves. */
    public void approve(String userCode) {
        answer(userCode, DeviceState.APPROVED);
    }

    /** The user types {@code userCode} on the verification page and denies. */
    public void deny(String userCode) {
        answer(userCode, DeviceState.DENIED);
    }

    /** The user removes the client's access in their account's settings: every grant stops working. */
    public void revokeEverything() {
        revoked.addAll(refreshTokens);
        refreshTokens.clear();
    }

    /** Ends every access token issued so far before its time (grants stay good: a refresh gives a new one). */
    public void endAccessTokens() {
        accessTokens.replaceAll((token, expiry) -> clock.instant());
    }

    /** How many refresh-token grants were answered with a new access token. */
    public int refreshes() {
        return refreshes.get();
    }

    /** How many times the token endpoint was polled with a device code. */
    public int polls() {
        return polls.get();
    }

    /** The refresh tokens revoked so far (through the revocation endpoint or {@link #revokeEverything}). */
    public List<String> revoked() {
        return List.copyOf(revoked);
    }

    @Override
    public void close() {
        http.stop(0);
    }

    private void answer(String userCode, DeviceState state) {
        devices.entrySet().stream()
                .filter(e -> e.getValue().userCode().equals(userCode))
                .findFirst()
                .ifPresentOrElse(e -> deviceStates.put(e.getKey(), state), () -> {
                    throw new AssertionError("no device sign-in with the user code " + userCode);
                });
    }

    private void discovery(HttpExchange exchange) throws IOException {
        String base = issuer().toString();
        ObjectNode document = Json.object();
        document.put("issuer", base);
        document.put("authorization_endpoint", base + "/authorize");
        document.put("token_endpoint", base + "/token");
        document.put("device_authorization_endpoint", base + "/device");
        document.put("revocation_endpoint", base + "/revoke");
        document.put("jwks_uri", base + "/jwks");
        document.putArray("response_types_supported").add("code");
        document.putArray("subject_types_supported").add("public");
        document.putArray("id_token_signing_alg_values_supported").add("HS256");
        document.putArray("code_challenge_methods_supported").add("S256");
        var methods = document.putArray("token_endpoint_auth_methods_supported");
        methods.add("client_secret_basic");
        if (!secretWithBasicOnly.get()) {
            methods.add("client_secret_post");
        }
        json(exchange, 200, document);
    }

    private void authorize(HttpExchange exchange) throws IOException {
        Map<String, String> query = form(exchange.getRequestURI().getRawQuery());
        String redirect = query.getOrDefault("redirect_uri", "");
        if (!clientId.equals(query.get("client_id"))
                || !"code".equals(query.get("response_type"))
                || !redirect.startsWith("http://127.0.0.1:")
                || !"S256".equals(query.get("code_challenge_method"))
                || !query.containsKey("code_challenge")) {
            text(exchange, 400, "bad authorization request: " + query);
            return;
        }
        String state = query.getOrDefault("state", "");
        String location;
        if (denyNextAuthorization.getAndSet(false)) {
            location = redirect + "?error=access_denied&state=" + encode(state);
        } else {
            String code = random();
            codes.put(code, new PendingCode(query.get("code_challenge"), redirect, query.getOrDefault("scope", "")));
            location = redirect + "?code=" + encode(code) + "&state=" + encode(state);
        }
        exchange.getResponseHeaders().set("Location", location);
        exchange.sendResponseHeaders(302, -1);
        exchange.close();
    }

    private void token(HttpExchange exchange) throws IOException {
        Map<String, String> form = form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        if (!clientAuthenticated(exchange, form)) {
            error(exchange, 401, "invalid_client");
            return;
        }
        switch (form.getOrDefault("grant_type", "")) {
            case "authorization_code" -> {
                PendingCode pending = codes.remove(form.getOrDefault("code", ""));
                if (pending == null || !pending.redirect().equals(form.get("redirect_uri"))) {
                    error(exchange, 400, "invalid_grant");
                } else if (!pending.challenge().equals(challenge(form.getOrDefault("code_verifier", "")))) {
                    error(exchange, 400, "invalid_grant", "PKCE verification failed");
                } else {
                    tokens(exchange, pending.scope(), Optional.empty());
                }
            }
            case "refresh_token" -> {
                String refreshToken = form.getOrDefault("refresh_token", "");
                if (!refreshTokens.contains(refreshToken)) {
                    error(exchange, 400, "invalid_grant", "Token has been expired or revoked.");
                } else {
                    refreshes.incrementAndGet();
                    tokens(exchange, "", Optional.of(refreshToken));
                }
            }
            case "urn:ietf:params:oauth:grant-type:device_code" ->
                deviceToken(exchange, form.getOrDefault("device_code", ""));
            default -> error(exchange, 400, "unsupported_grant_type");
        }
    }

    private void deviceToken(HttpExchange exchange, String deviceCode) throws IOException {
        polls.incrementAndGet();
        Device device = devices.get(deviceCode);
        if (device == null) {
            error(exchange, 400, "invalid_grant");
        } else if (!clock.instant().isBefore(device.expiresAt())) {
            error(exchange, 400, "expired_token");
        } else if (slowDowns.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            error(exchange, 400, "slow_down");
        } else {
            switch (deviceStates.get(deviceCode)) {
                case PENDING -> error(exchange, 400, "authorization_pending");
                case DENIED -> error(exchange, 400, "access_denied");
                case APPROVED -> {
                    devices.remove(deviceCode);
                    tokens(exchange, device.scope(), Optional.empty());
                }
            }
        }
    }

    private void device(HttpExchange exchange) throws IOException {
        Map<String, String> form = form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        if (!clientId.equals(form.get("client_id"))) {
            error(exchange, 401, "invalid_client");
            return;
        }
        String deviceCode = random();
        String userCode = String.format("%04d-%04d", RANDOM.nextInt(10_000), RANDOM.nextInt(10_000));
        devices.put(
                deviceCode,
                new Device(
                        userCode,
                        form.getOrDefault("scope", ""),
                        clock.instant().plusSeconds(600)));
        deviceStates.put(deviceCode, DeviceState.PENDING);
        ObjectNode answer = Json.object();
        answer.put("device_code", deviceCode);
        answer.put("user_code", userCode);
        answer.put(verificationUrl.get() ? "verification_url" : "verification_uri", issuer() + "/activate");
        answer.put("expires_in", 600);
        answer.put("interval", 1);
        json(exchange, 200, answer);
    }

    private void revoke(HttpExchange exchange) throws IOException {
        Map<String, String> form = form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        if (!clientAuthenticated(exchange, form)) {
            error(exchange, 401, "invalid_client");
            return;
        }
        String token = form.getOrDefault("token", "");
        if (refreshTokens.remove(token)) {
            revoked.add(token);
        }
        exchange.sendResponseHeaders(200, -1);
        exchange.close();
    }

    private void tokens(HttpExchange exchange, String scope, Optional<String> refreshing) throws IOException {
        String refreshToken = refreshing.orElseGet(FakeAuthorizationServer::random);
        refreshTokens.add(refreshToken);
        String accessToken = random();
        Instant now = clock.instant();
        accessTokens.put(accessToken, now.plus(accessTokenLifetime));
        accessTokenGrant.put(accessToken, refreshToken);
        ObjectNode answer = Json.object();
        answer.put("access_token", accessToken);
        answer.put("token_type", "Bearer");
        answer.put("expires_in", accessTokenLifetime.toSeconds());
        if (refreshing.isEmpty()) {
            answer.put("refresh_token", refreshToken);
            answer.put("scope", scope);
            answer.put("id_token", idToken(now));
        }
        issued.forEach(listener -> listener.accept(accessToken));
        json(exchange, 200, answer);
    }

    private String idToken(Instant now) {
        try {
            SignedJWT jwt = new SignedJWT(
                    new JWSHeader(JWSAlgorithm.HS256),
                    new JWTClaimsSet.Builder()
                            .issuer(issuer().toString())
                            .subject("sub-" + email)
                            .audience(clientId)
                            .claim("email", email)
                            .issueTime(Date.from(now))
                            .expirationTime(Date.from(now.plusSeconds(3600)))
                            .build());
            jwt.sign(new MACSigner(ID_TOKEN_KEY));
            return jwt.serialize();
        } catch (com.nimbusds.jose.JOSEException e) {
            throw new AssertionError(e);
        }
    }

    private boolean clientAuthenticated(HttpExchange exchange, Map<String, String> form) {
        String basic = exchange.getRequestHeaders().getFirst("Authorization");
        clientAuthentications.add(basic != null ? "basic" : form.containsKey("client_secret") ? "post" : "none");
        if (secretWithBasicOnly.get() && basic == null && form.containsKey("client_secret")) {
            return false;
        }
        if (basic != null && basic.startsWith("Basic ")) {
            String[] pair =
                    new String(Base64.getDecoder().decode(basic.substring(6)), StandardCharsets.UTF_8).split(":", 2);
            return pair.length == 2
                    && clientId.equals(decode(pair[0]))
                    && clientSecret.map(s -> s.equals(decode(pair[1]))).orElse(false);
        }
        return clientId.equals(form.get("client_id"))
                && clientSecret
                        .map(s -> s.equals(form.get("client_secret")))
                        .orElse(!form.containsKey("client_secret"));
    }

    private static String challenge(String verifier) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private static Map<String, String> form(String text) {
        Map<String, String> values = new LinkedHashMap<>();
        if (text == null || text.isEmpty()) {
            return values;
        }
        for (String pair : text.split("&")) {
            String[] kv = pair.split("=", 2);
            values.put(decode(kv[0]), kv.length == 2 ? decode(kv[1]) : "");
        }
        return values;
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static String random() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static void error(HttpExchange exchange, int status, String code) throws IOException {
        error(exchange, status, code, null);
    }

    private static void error(HttpExchange exchange, int status, String code, String description) throws IOException {
        ObjectNode answer = Json.object();
        answer.put("error", code);
        if (description != null) {
            answer.put("error_description", description);
        }
        json(exchange, status, answer);
    }

    private static void json(HttpExchange exchange, int status, ObjectNode body) throws IOException {
        byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
        exchange.close();
    }

    private static void text(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
        exchange.close();
    }
}
