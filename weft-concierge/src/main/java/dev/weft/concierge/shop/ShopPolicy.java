package dev.weft.concierge.shop;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Who the concierge believes a customer is. A storefront vouches for its customer with a token signed
 * with the shop's key ({@link #tokens()}) or with a key made for that customer; where nothing vouches,
 * a customer proves who they are by saying back a one-time code mailed to their address ({@link
 * Verification#CODE}, the default, through {@link #codes()}). {@link Verification#DEMO} is τ-bench's
 * retail policy — an email, or a name and postcode, is taken as proof — for demonstrations and
 * benchmarks only.
 */
public record ShopPolicy(
        Verification verification, Optional<CustomerTokens> tokens, Optional<CodeSender> codes, OpenReads openReads) {
    /** How a customer nobody vouches for proves who they are. */
    public enum Verification {
        /** A six-digit code mailed to the account's address, said back in the conversation. */
        CODE,
        /** Knowing the account's email, or its name and postcode (τ-bench's retail policy): a demo, never safe. */
        DEMO
    }

    /** What of an account a customer who has only named it (not proved it yet) may read. */
    public enum OpenReads {
        /** Nothing of an account (the default): not an order's status, not its address. */
        NONE,
        /**
         * The status of an order the customer names by its number, when the email (or name and postcode)
         * they named is the order's customer's: what a parcel-tracking page shows. Nothing is changed, and
         * no other order is listed, before the code.
         */
        ORDER_STATUS
    }

    public ShopPolicy {
        Objects.requireNonNull(verification, "verification");
        Objects.requireNonNull(tokens, "tokens");
        Objects.requireNonNull(codes, "codes");
        Objects.requireNonNull(openReads, "openReads");
    }

    /** Codes, with no way to send them and no shop key: only what needs no account can be done. */
    public static ShopPolicy strict() {
        return new ShopPolicy(Verification.CODE, Optional.empty(), Optional.empty(), OpenReads.NONE);
    }

    /** τ-bench's retail policy: an email, or a name and postcode, verifies a customer. */
    public static ShopPolicy demo() {
        return new ShopPolicy(Verification.DEMO, Optional.empty(), Optional.empty(), OpenReads.NONE);
    }

    public ShopPolicy tokens(CustomerTokens tokens) {
        return new ShopPolicy(verification, Optional.of(tokens), codes, openReads);
    }

    public ShopPolicy codes(CodeSender codes) {
        return new ShopPolicy(verification, tokens, Optional.of(codes), openReads);
    }

    public ShopPolicy openReads(OpenReads openReads) {
        return new ShopPolicy(verification, tokens, codes, openReads);
    }

    /**
     * The policy the environment sets: {@code WEFT_SHOP_VERIFY} ({@code code}, the default, or {@code
     * demo}), {@code WEFT_SHOP_SECRET} (the shop's HS256 key, at least 32 bytes), {@code WEFT_SHOP_SMTP}
     * ({@code smtp://host:port}), {@code WEFT_SHOP_FROM} (the codes' sender) and {@code
     * WEFT_SHOP_OPEN_READS} ({@code none}, the default, or {@code order_status}).
     *
     * @throws WeftException {@code E_SHOP_CONFIG_INVALID} for a setting that is wrong, naming it
     */
    public static ShopPolicy fromEnvironment(Map<String, String> env) {
        String mode = env.getOrDefault("WEFT_SHOP_VERIFY", "code").strip().toLowerCase(Locale.ROOT);
        Verification verification = switch (mode) {
            case "", "code" -> Verification.CODE;
            case "demo" -> Verification.DEMO;
            default ->
                throw new WeftException(
                        ErrorCode.E_SHOP_CONFIG_INVALID,
                        "WEFT_SHOP_VERIFY must be 'code' (the default) or 'demo', was '" + mode + "'");
        };
        String reads = env.getOrDefault("WEFT_SHOP_OPEN_READS", "none").strip().toLowerCase(Locale.ROOT);
        OpenReads openReads = switch (reads) {
            case "", "none" -> OpenReads.NONE;
            case "order_status" -> OpenReads.ORDER_STATUS;
            default ->
                throw new WeftException(
                        ErrorCode.E_SHOP_CONFIG_INVALID,
                        "WEFT_SHOP_OPEN_READS must be 'none' (the default) or 'order_status', was '" + reads + "'");
        };
        ShopPolicy policy = new ShopPolicy(verification, Optional.empty(), Optional.empty(), openReads);
        String secret = env.getOrDefault("WEFT_SHOP_SECRET", "");
        if (!secret.isEmpty()) {
            policy = policy.tokens(CustomerTokens.hs256(secret));
        }
        String smtp = env.getOrDefault("WEFT_SHOP_SMTP", "").strip();
        if (!smtp.isEmpty()) {
            String from = env.getOrDefault("WEFT_SHOP_FROM", "").strip();
            if (from.isEmpty()) {
                throw new WeftException(
                        ErrorCode.E_SHOP_CONFIG_INVALID,
                        "WEFT_SHOP_SMTP is set but WEFT_SHOP_FROM is not: the codes need a sender address");
            }
            policy = policy.codes(CodeSender.smtp(smtpUri(smtp), from));
        }
        return policy;
    }

    private static URI smtpUri(String value) {
        try {
            URI uri = new URI(value);
            if (!"smtp".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 1) {
                throw new URISyntaxException(value, "expected smtp://host:port");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new WeftException(
                    ErrorCode.E_SHOP_CONFIG_INVALID, "WEFT_SHOP_SMTP must be smtp://host:port, was '" + value + "'");
        }
    }
}
