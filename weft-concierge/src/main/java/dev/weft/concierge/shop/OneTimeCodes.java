package dev.weft.concierge.shop;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one-time codes a customer proves an address with: six digits, valid ten minutes, three tries; only
 * a hash bound to the conversation is kept. Per address, whatever the conversation, at most {@link
 * #SENDS_PER_ADDRESS} codes an hour are mailed and {@link #WRONG_TRIES_PER_ADDRESS} wrong codes a day are
 * taken ({@code E_CODE_LIMIT} after). Thread-safe.
 */
public final class OneTimeCodes {
    /** How long a code may be said back. */
    public static final Duration LIFETIME = Duration.ofMinutes(10);
    /** How many times a code may be said back wrong before a new one must be asked for. */
    public static final int TRIES = 3;
    /**
     * How many codes one address may be mailed in {@link #SEND_WINDOW}, across every conversation: a
     * stranger opening new conversations cannot fill a customer's inbox.
     */
    public static final int SENDS_PER_ADDRESS = 5;
    /** The window {@link #SENDS_PER_ADDRESS} counts in. */
    public static final Duration SEND_WINDOW = Duration.ofHours(1);
    /**
     * How many wrong codes may be said for one address in {@link #WRONG_WINDOW}, across every conversation:
     * new conversations do not buy new guesses (ten a day leave a guesser one chance in 100,000).
     */
    public static final int WRONG_TRIES_PER_ADDRESS = 10;
    /** The window {@link #WRONG_TRIES_PER_ADDRESS} counts in. */
    public static final Duration WRONG_WINDOW = Duration.ofDays(1);

    /** A message that is a code: six digits standing alone (spaces and dashes between them allowed). */
    private static final Pattern CODE = Pattern.compile("(?<![\\d\\p{L}])(\\d{3})[ -]?(\\d{3})(?![\\d\\p{L}])");

    private static final SecureRandom RANDOM = new SecureRandom();

    private OneTimeCodes() {}

    /** A new code: six random digits. */
    public static String next() {
        return String.format(java.util.Locale.ROOT, "%06d", RANDOM.nextInt(1_000_000));
    }

    /** The code {@code message} says, when it says exactly one (the customer's "it's 123 456"). */
    public static Optional<String> said(String message) {
        Matcher m = CODE.matcher(message);
        if (!m.find()) {
            return Optional.empty();
        }
        String code = m.group(1) + m.group(2);
        return m.find() ? Optional.empty() : Optional.of(code);
    }

    /** The hash kept of {@code code} for {@code user}'s session {@code session}: the same code elsewhere hashes otherwise. */
    public static String hash(String user, String session, String code) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(user.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(session.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            return HexFormat.of().formatHex(sha.digest(code.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** The key an address is limited by: the email, lower-cased. */
    public static String address(String email) {
        return email.strip().toLowerCase(java.util.Locale.ROOT);
    }

    /** {@code mason.martinez@example.com} as {@code m…z@example.com}: enough to recognise, not to learn. */
    public static String masked(String email) {
        int at = email.indexOf('@');
        if (at <= 1) {
            return "…" + email.substring(Math.max(at, 0));
        }
        return email.charAt(0) + "…" + email.charAt(at - 1) + email.substring(at);
    }
}
