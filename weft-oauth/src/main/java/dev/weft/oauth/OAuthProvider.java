package dev.weft.oauth;

import java.net.URI;
import java.util.List;
import java.util.Locale;

/**
 * The providers whose accounts Weft signs in to, each with its default issuer, the environment
 * variables that override it and name the user's own client, and the scopes each use of an account
 * needs.
 */
public enum OAuthProvider {
    GOOGLE(
            "https://accounts.google.com",
            List.of("openid", "email", "https://www.googleapis.com/auth/calendar"),
            List.of("openid", "email", "https://mail.google.com/")),
    MICROSOFT(
            "https://login.microsoftonline.com/common/v2.0",
            // Microsoft 365 has no CalDAV; a calendar signed in with Microsoft is one the user names (--url).
            List.of("openid", "email", "offline_access", "https://outlook.office.com/Calendars.ReadWrite"),
            List.of(
                    "openid",
                    "email",
                    "offline_access",
                    "https://outlook.office.com/IMAP.AccessAsUser.All",
                    "https://outlook.office.com/SMTP.Send"));

    private final URI defaultIssuer;
    private final List<String> calendarScopes;
    private final List<String> mailScopes;

    OAuthProvider(String defaultIssuer, List<String> calendarScopes, List<String> mailScopes) {
        this.defaultIssuer = URI.create(defaultIssuer);
        this.calendarScopes = calendarScopes;
        this.mailScopes = mailScopes;
    }

    /** {@code google} or {@code microsoft}, as commands, JSON and the database name it. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The issuer used when {@link #issuerVariable()} is not set. */
    public URI defaultIssuer() {
        return defaultIssuer;
    }

    /** {@code WEFT_GOOGLE_ISSUER} or {@code WEFT_MICROSOFT_ISSUER}. */
    public String issuerVariable() {
        return "WEFT_" + name() + "_ISSUER";
    }

    /** {@code WEFT_GOOGLE_CLIENT_ID} or {@code WEFT_MICROSOFT_CLIENT_ID}. */
    public String clientIdVariable() {
        return "WEFT_" + name() + "_CLIENT_ID";
    }

    /** {@code WEFT_GOOGLE_CLIENT_SECRET} or {@code WEFT_MICROSOFT_CLIENT_SECRET}. */
    public String clientSecretVariable() {
        return "WEFT_" + name() + "_CLIENT_SECRET";
    }

    /** The scopes a calendar kept in sync over CalDAV needs (with a refresh token). */
    public List<String> calendarScopes() {
        return calendarScopes;
    }

    /** The scopes reading mail over IMAP and sending it over SMTP with XOAUTH2 need (with a refresh token). */
    public List<String> mailScopes() {
        return mailScopes;
    }
}
