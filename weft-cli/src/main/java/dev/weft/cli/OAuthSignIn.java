package dev.weft.cli;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.oauth.AuthorizationServer;
import dev.weft.oauth.DevicePrompt;
import dev.weft.oauth.Grant;
import dev.weft.oauth.OAuthClient;
import dev.weft.oauth.OAuthProvider;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The sign-in the {@code connect --google|--microsoft} commands run: the user's own client from the
 * environment, then a browser coming back to a loopback redirect, or with {@code --device} a code typed on
 * another device. What the user must do is printed to {@code prompt} (standard error with {@code --json},
 * so that standard output holds one JSON object) and flushed at once, as the command then waits.
 */
final class OAuthSignIn {
    /** How long a browser sign-in waits for the browser to come back. */
    static final Duration BROWSER_WAIT = Duration.ofMinutes(5);

    /** A sign-in's outcome: the client it was made with and the grant it gave. */
    record SignedIn(OAuthClient client, Grant grant) {}

    private OAuthSignIn() {}

    /**
     * The provider {@code --google} or {@code --microsoft} chose, if either.
     *
     * @throws WeftException {@code E_BAD_INPUT} for both, or for {@code --device} with neither
     */
    static Optional<OAuthProvider> provider(boolean google, boolean microsoft, boolean device) {
        if (google && microsoft) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "--google and --microsoft: choose one");
        }
        if (device && !google && !microsoft) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "--device signs in with --google or --microsoft");
        }
        return google
                ? Optional.of(OAuthProvider.GOOGLE)
                : microsoft ? Optional.of(OAuthProvider.MICROSOFT) : Optional.empty();
    }

    /** Signs in to {@code provider} for {@code scopes}, telling the user on {@code prompt} what to do. */
    static SignedIn signIn(OAuthProvider provider, List<String> scopes, boolean device, PrintWriter prompt) {
        OAuthClient client = OAuthClient.fromEnvironment(provider, Env.get());
        AuthorizationServer server = AuthorizationServer.discover(client, Clock.systemUTC());
        Grant grant = device
                ? server.signInWithDeviceCode(
                        scopes, shown -> device(provider, shown, prompt), AuthorizationServer.Pause.sleeping())
                : server.signInWithBrowser(
                        scopes,
                        url -> {
                            prompt.println("Open this URL in a browser to sign in to " + provider.id() + ":");
                            prompt.println(url);
                            prompt.println("Waiting for the browser to come back (up to " + BROWSER_WAIT.toMinutes()
                                    + " minutes)…");
                            prompt.flush();
                        },
                        BROWSER_WAIT);
        return new SignedIn(client, grant);
    }

    private static void device(OAuthProvider provider, DevicePrompt shown, PrintWriter prompt) {
        prompt.println("To sign in to " + provider.id() + ", open " + shown.verificationUri()
                + " on any device and enter" + " the code " + shown.userCode());
        shown.verificationUriComplete().ifPresent(url -> prompt.println("(or open " + url + ")"));
        prompt.println("The code is good until " + shown.expiresAt() + ". Waiting for the sign-in to be approved…");
        prompt.flush();
    }
}
