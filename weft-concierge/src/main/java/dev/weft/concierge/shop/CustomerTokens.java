package dev.weft.concierge.shop;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The shop's customer tokens: JWTs signed with HS256 under the shop's key ({@code WEFT_SHOP_SECRET}),
 * whose {@code sub} is the customer's email and whose {@code exp} says until when the storefront vouches.
 * Parsing and the signature are Nimbus JOSE+JWT's; only HS256 is accepted (never {@code none}, never
 * another algorithm a token names). Thread-safe.
 */
public final class CustomerTokens {
    /** The shortest key HS256 is safe with: 256 bits. */
    public static final int MIN_KEY_BYTES = 32;

    /** How far the storefront's clock may be ahead of ours. */
    private static final Duration SKEW = Duration.ofSeconds(30);

    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");

    private final byte[] key;

    private CustomerTokens(byte[] key) {
        this.key = key;
    }

    /**
     * The tokens signed with {@code secret}'s UTF-8 bytes.
     *
     * @throws WeftException {@code E_SHOP_CONFIG_INVALID} for a key shorter than 32 bytes
     */
    public static CustomerTokens hs256(String secret) {
        byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
        if (bytes.length < MIN_KEY_BYTES) {
            throw new WeftException(
                    ErrorCode.E_SHOP_CONFIG_INVALID,
                    "WEFT_SHOP_SECRET must be at least " + MIN_KEY_BYTES + " bytes (an HS256 key), was "
                            + bytes.length);
        }
        return new CustomerTokens(bytes);
    }

    /**
     * The email of the customer {@code token} vouches for at {@code now}.
     *
     * @throws WeftException {@code E_CUSTOMER_TOKEN_INVALID} for a token that is not a JWT, is not HS256,
     *     is not signed with the shop's key, has no {@code exp} or has expired, is not valid yet, or whose
     *     {@code sub} is not an email
     */
    public String email(String token, Instant now) {
        SignedJWT jwt;
        try {
            jwt = SignedJWT.parse(token.strip());
        } catch (ParseException e) {
            throw invalid("is not a signed JWT (" + e.getMessage() + ")");
        }
        if (!JWSAlgorithm.HS256.equals(jwt.getHeader().getAlgorithm())) {
            throw invalid("is signed with " + jwt.getHeader().getAlgorithm() + "; the shop's tokens are HS256");
        }
        try {
            if (!jwt.verify(new MACVerifier(key))) {
                throw invalid("is not signed with the shop's key");
            }
        } catch (JOSEException e) {
            throw invalid("cannot be checked: " + e.getMessage());
        }
        JWTClaimsSet claims;
        try {
            claims = jwt.getJWTClaimsSet();
        } catch (ParseException e) {
            throw invalid("has claims that do not parse (" + e.getMessage() + ")");
        }
        Date expires = claims.getExpirationTime();
        if (expires == null) {
            throw invalid("has no expiry (exp): a storefront vouches for a while, not for ever");
        }
        if (!now.isBefore(expires.toInstant().plus(SKEW))) {
            throw invalid("expired at " + expires.toInstant());
        }
        Date notBefore = claims.getNotBeforeTime();
        if (notBefore != null && now.plus(SKEW).isBefore(notBefore.toInstant())) {
            throw invalid("is not valid before " + notBefore.toInstant());
        }
        String subject = claims.getSubject() == null ? "" : claims.getSubject().strip();
        if (!EMAIL.matcher(subject).matches()) {
            throw invalid("names no customer: its sub must be the customer's email");
        }
        return subject.toLowerCase(Locale.ROOT);
    }

    /**
     * A token for {@code email}, valid until {@code expires}: what a storefront signs (tests and examples
     * use it; the storefront uses its own JOSE library).
     */
    public String sign(String email, Instant expires) {
        try {
            SignedJWT jwt = new SignedJWT(
                    new JWSHeader(JWSAlgorithm.HS256),
                    new JWTClaimsSet.Builder()
                            .subject(email)
                            .expirationTime(Date.from(expires))
                            .build());
            jwt.sign(new MACSigner(Arrays.copyOf(key, key.length)));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a customer token: " + e.getMessage(), e);
        }
    }

    private static WeftException invalid(String why) {
        return new WeftException(
                ErrorCode.E_CUSTOMER_TOKEN_INVALID, "the customer token " + why + "; nothing was done");
    }

    @Override
    public String toString() {
        return "CustomerTokens[HS256]";
    }
}
