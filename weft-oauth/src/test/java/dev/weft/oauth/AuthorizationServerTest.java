package dev.weft.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Signing in to a provider through a fake authorization server at the wire: a browser following the
 * printed URL back to the loopback listener, a device code approved elsewhere, tokens refreshed after
 * they expire by the clock, and a revoked grant told apart from every other failure.
 */
final class AuthorizationServerTest {
    private static final List<String> SCOPES = OAuthProvider.GOOGLE.calendarScopes();

    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-28T08:00:00Z"));
    private final FakeAuthorizationServer fake =
            FakeAuthorizationServer.start("weft-test", Optional.of("s3cret"), "dana@example.com", clock);
    private final AuthorizationServer server = AuthorizationServer.discover(
            new OAuthClient(OAuthProvider.GOOGLE, fake.issuer(), "weft-test", Optional.of("s3cret")), clock);

    @AfterEach
    void stop() {
        fake.close();
    }

    @Test
    void signInWithBrowser_exchangesTheCodeWithItsPkceVerifierAndNamesTheAccount() {
        List<URI> opened = new ArrayList<>();
        Grant grant = server.signInWithBrowser(
                SCOPES,
                url -> {
                    opened.add(url);
                    assertThat(Browser.open(url)).isEqualTo(200);
                },
                Duration.ofSeconds(30));

        assertThat(opened.getFirst().toString())
                .startsWith(fake.issuer() + "/authorize?")
                .contains(
                        "code_challenge_method=S256", "redirect_uri=http%3A%2F%2F127.0.0.1%3A", "access_type=offline");
        assertThat(grant.account()).isEqualTo("dana@example.com");
        assertThat(grant.refreshToken()).isNotBlank();
        assertThat(fake.admits(grant.accessToken())).isTrue();
        assertThat(grant.expiresAt()).isEqualTo(clock.instant().plus(Duration.ofHours(1)));
        assertThat(grant.toString()).doesNotContain(grant.accessToken(), grant.refreshToken());
    }

    @Test
    void aClientWithASecretSendsItInTheBodyUnlessTheServerTakesItWithBasicOnly() {
        server.signInWithBrowser(SCOPES, Browser::open, Duration.ofSeconds(30));
        fake.takeTheSecretWithBasicOnly();
        AuthorizationServer basicOnly = AuthorizationServer.discover(server.client(), clock);

        basicOnly.signInWithBrowser(SCOPES, Browser::open, Duration.ofSeconds(30));

        assertThat(fake.clientAuthentications()).containsExactly("post", "basic");
    }

    @Test
    void signInWithBrowser_signsInAPublicClientThatHasNoSecret() {
        try (FakeAuthorizationServer publicServer =
                FakeAuthorizationServer.start("weft-public", Optional.empty(), "noa@contoso.com", clock)) {
            AuthorizationServer microsoft = AuthorizationServer.discover(
                    new OAuthClient(OAuthProvider.MICROSOFT, publicServer.issuer(), "weft-public", Optional.empty()),
                    clock);

            Grant grant = microsoft.signInWithBrowser(
                    OAuthProvider.MICROSOFT.mailScopes(), Browser::open, Duration.ofSeconds(30));

            assertThat(grant.account()).isEqualTo("noa@contoso.com");
            assertThat(grant.provider()).isEqualTo(OAuthProvider.MICROSOFT);
        }
    }

    @Test
    void signInWithBrowser_refusedByTheUserIsAuthFailedAndGivesNoGrant() {
        fake.denyNextAuthorization();

        assertThatThrownBy(() -> server.signInWithBrowser(SCOPES, Browser::open, Duration.ofSeconds(30)))
                .isInstanceOf(SignInFailedException.class)
                .hasMessageContaining("access_denied")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_AUTH_FAILED);
    }

    @Test
    void signInWithBrowser_refusesARedirectThatCarriesAnotherState() {
        assertThatThrownBy(() -> server.signInWithBrowser(
                        SCOPES,
                        url -> Browser.open(URI.create(url.toString().replaceAll("state=[^&]+", "state=forged"))),
                        Duration.ofSeconds(30)))
                .isInstanceOf(SignInFailedException.class)
                .hasMessageContaining("another sign-in's state");
    }

    @Test
    void signInWithBrowser_givesUpWhenNobodyComesBack() {
        assertThatThrownBy(() -> server.signInWithBrowser(SCOPES, url -> {}, Duration.ofMillis(50)))
                .isInstanceOf(SignInFailedException.class)
                .hasMessageContaining("nobody signed in");
    }

    @Test
    void signInWithDeviceCode_pollsAtTheIntervalUntilApprovedAndWaitsLongerWhenToldToSlowDown() {
        fake.slowDown(1);
        AtomicReference<DevicePrompt> shown = new AtomicReference<>();
        List<Duration> pauses = new ArrayList<>();

        Grant grant = server.signInWithDeviceCode(SCOPES, shown::set, duration -> {
            pauses.add(duration);
            clock.advance(duration);
            if (pauses.size() == 2) {
                fake.approve(shown.get().userCode());
            }
        });

        assertThat(shown.get().verificationUri()).isEqualTo(URI.create(fake.issuer() + "/activate"));
        assertThat(shown.get().userCode()).matches("\\d{4}-\\d{4}");
        assertThat(pauses).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(6));
        assertThat(fake.polls()).isEqualTo(2);
        assertThat(grant.account()).isEqualTo("dana@example.com");
        assertThat(fake.admits(grant.accessToken())).isTrue();
    }

    @Test
    void signInWithDeviceCode_readsTheVerificationPageAsGoogleNamesIt() {
        fake.nameVerificationUrlAsGoogleDoes();
        AtomicReference<DevicePrompt> shown = new AtomicReference<>();

        server.signInWithDeviceCode(
                SCOPES, shown::set, duration -> fake.approve(shown.get().userCode()));

        assertThat(shown.get().verificationUri()).isEqualTo(URI.create(fake.issuer() + "/activate"));
    }

    @Test
    void signInWithDeviceCode_keepsPollingWhileTheUserHasNotAnswered() {
        AtomicReference<DevicePrompt> shown = new AtomicReference<>();
        List<Duration> pauses = new ArrayList<>();

        server.signInWithDeviceCode(SCOPES, shown::set, duration -> {
            pauses.add(duration);
            clock.advance(duration);
            if (pauses.size() == 4) {
                fake.approve(shown.get().userCode());
            }
        });

        assertThat(fake.polls()).isEqualTo(4);
    }

    @Test
    void signInWithDeviceCode_deniedIsAuthFailed() {
        AtomicReference<DevicePrompt> shown = new AtomicReference<>();

        assertThatThrownBy(() -> server.signInWithDeviceCode(
                        SCOPES, shown::set, duration -> fake.deny(shown.get().userCode())))
                .isInstanceOf(SignInFailedException.class)
                .hasMessageContaining("denied");
    }

    @Test
    void signInWithDeviceCode_expiredBeforeApprovalIsAuthFailed() {
        assertThatThrownBy(() -> server.signInWithDeviceCode(
                        SCOPES, prompt -> {}, duration -> clock.advance(Duration.ofMinutes(11))))
                .isInstanceOf(SignInFailedException.class)
                .hasMessageContaining("expired");
    }

    @Test
    void freshAccessTokens_keepsTheTokenWhileItIsGoodAndRefreshesItBeforeItExpires() {
        fake.accessTokenLifetime(Duration.ofSeconds(120));
        Grant first = server.signInWithBrowser(SCOPES, Browser::open, Duration.ofSeconds(30));
        AtomicReference<Grant> kept = new AtomicReference<>(first);
        FreshAccessTokens tokens =
                FreshAccessTokens.create(() -> server, store(kept), clock, FreshAccessTokens.DEFAULT_MARGIN);

        assertThat(tokens.accessToken()).isEqualTo(first.accessToken());
        clock.advance(Duration.ofSeconds(61));
        String second = tokens.accessToken();

        assertThat(second).isNotEqualTo(first.accessToken());
        assertThat(fake.admits(second)).isTrue();
        assertThat(fake.refreshes()).isEqualTo(1);
        assertThat(kept.get().accessToken()).isEqualTo(second);
        assertThat(kept.get().refreshToken()).isEqualTo(first.refreshToken());
    }

    @Test
    void freshAccessTokens_afterTheFirstTokenExpiredGivesOneTheServerAdmits() {
        fake.accessTokenLifetime(Duration.ofSeconds(2));
        Grant first = server.signInWithBrowser(SCOPES, Browser::open, Duration.ofSeconds(30));
        AtomicReference<Grant> kept = new AtomicReference<>(first);
        FreshAccessTokens tokens = FreshAccessTokens.create(() -> server, store(kept), clock, Duration.ZERO);

        clock.advance(Duration.ofSeconds(3));

        assertThat(fake.admits(first.accessToken())).isFalse();
        assertThat(fake.admits(tokens.accessToken())).isTrue();
    }

    @Test
    void freshAccessTokens_ofARevokedGrantIsAuthRevoked() {
        Grant first = server.signInWithBrowser(SCOPES, Browser::open, Duration.ofSeconds(30));
        AtomicReference<Grant> kept = new AtomicReference<>(first);
        FreshAccessTokens tokens =
                FreshAccessTokens.create(() -> server, store(kept), clock, FreshAccessTokens.DEFAULT_MARGIN);
        fake.revokeEverything();
        clock.advance(Duration.ofHours(2));

        assertThatThrownBy(tokens::accessToken)
                .isInstanceOf(GrantRevokedException.class)
                .hasMessageContaining("no longer honours the sign-in of dana@example.com")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_AUTH_REVOKED);
        assertThat(kept.get()).isEqualTo(first);
    }

    @Test
    void revoke_revokesTheRefreshTokenAtTheProvider() {
        Grant grant = server.signInWithBrowser(SCOPES, Browser::open, Duration.ofSeconds(30));

        assertThat(server.revoke(grant)).isTrue();

        assertThat(fake.revoked()).containsExactly(grant.refreshToken());
        assertThatThrownBy(() -> server.refresh(grant)).isInstanceOf(GrantRevokedException.class);
    }

    @Test
    void fromEnvironment_withoutAClientIdSaysWhatToSet() {
        assertThatThrownBy(() -> OAuthClient.fromEnvironment(OAuthProvider.GOOGLE, Map.of()))
                .isInstanceOf(WeftException.class)
                .hasMessageContaining("WEFT_GOOGLE_CLIENT_ID is not set")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_BAD_INPUT);
    }

    @Test
    void fromEnvironment_readsTheIssuerAndClientOrFallsBackToTheProvidersIssuer() {
        OAuthClient google = OAuthClient.fromEnvironment(
                OAuthProvider.GOOGLE, Map.of("WEFT_GOOGLE_CLIENT_ID", "id", "WEFT_GOOGLE_CLIENT_SECRET", "sec"));
        OAuthClient microsoft = OAuthClient.fromEnvironment(
                OAuthProvider.MICROSOFT,
                Map.of("WEFT_MICROSOFT_CLIENT_ID", "mid", "WEFT_MICROSOFT_ISSUER", "http://127.0.0.1:9/"));

        assertThat(google.issuer()).isEqualTo(URI.create("https://accounts.google.com"));
        assertThat(google.clientSecret()).contains("sec");
        assertThat(microsoft.issuer()).isEqualTo(URI.create("http://127.0.0.1:9/"));
        assertThat(microsoft.clientSecret()).isEmpty();
        assertThat(google.toString()).doesNotContain("sec");
    }

    private static GrantSlot store(AtomicReference<Grant> kept) {
        return new GrantSlot() {
            @Override
            public Grant read() {
                return kept.get();
            }

            @Override
            public void write(Grant refreshed) {
                kept.set(refreshed);
            }
        };
    }
}
