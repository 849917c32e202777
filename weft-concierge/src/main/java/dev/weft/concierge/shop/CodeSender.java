package dev.weft.concierge.shop;

import java.net.URI;
import java.time.Duration;

/**
 * Sends a customer the one-time code that proves the address is theirs. The mail goes to the address on
 * the customer's account, never to one the conversation names. Implementations are thread-safe.
 */
public interface CodeSender {
    /**
     * Mails {@code code}, valid for {@code validFor}, to {@code to}.
     *
     * @throws dev.weft.core.WeftException {@code E_MAIL_UNAVAILABLE} when the mail cannot be handed over
     */
    void send(String to, String code, Duration validFor);

    /** Through the shop's SMTP server {@code smtp} ({@code smtp://host:port}), from {@code from}. */
    static CodeSender smtp(URI smtp, String from) {
        return new SmtpCodeSender(smtp, from);
    }
}
