package dev.weft.mailflow.internal;

import dev.weft.core.ErrorCode;
import dev.weft.core.OutcomeUnknownException;
import dev.weft.core.TransientException;
import dev.weft.core.WeftException;
import dev.weft.mail.Submission;
import dev.weft.mailflow.Venue;
import jakarta.mail.AuthenticationFailedException;
import jakarta.mail.Flags;
import jakarta.mail.Folder;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Store;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.search.MessageIDTerm;
import java.io.ByteArrayInputStream;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * A venue's mailbox over Angus Mail: SMTP to send a reply, IMAP to look for it in {@code Sent} and
 * file a copy there. Each call opens its own connection. Thread-safe.
 */
public final class Mailer {
    private static final int TIMEOUT_MILLIS = 15_000;
    /** The folders a sent reply may be found in, as servers name them. */
    static final List<String> SENT_FOLDERS =
            List.of("Sent", "Sent Items", "Sent Messages", "INBOX.Sent", "[Gmail]/Sent Mail");

    private final Properties extra;

    /** With {@code extra} session properties (a test trusting its server's certificate). */
    public Mailer(Properties extra) {
        this.extra = new Properties();
        this.extra.putAll(extra);
    }

    public Session session(Venue.Mailbox box) {
        Properties props = new Properties();
        String imap = imapProtocol(box);
        String smtp = smtpProtocol(box);
        for (String protocol : List.of(imap, smtp)) {
            props.put("mail." + protocol + ".connectiontimeout", String.valueOf(TIMEOUT_MILLIS));
            props.put("mail." + protocol + ".timeout", String.valueOf(TIMEOUT_MILLIS));
            props.put("mail." + protocol + ".writetimeout", String.valueOf(TIMEOUT_MILLIS));
        }
        props.put("mail." + smtp + ".auth", "true");
        // Reading a message must not mark it read: the venue's people still see it as new.
        props.put("mail." + imap + ".peek", "true");
        if (box.security() == Venue.Security.STARTTLS) {
            props.put("mail.imap.starttls.enable", "true");
            props.put("mail.imap.starttls.required", "true");
            props.put("mail.smtp.starttls.enable", "true");
            props.put("mail.smtp.starttls.required", "true");
        }
        props.putAll(extra);
        return Session.getInstance(props);
    }

    static String imapProtocol(Venue.Mailbox box) {
        return box.security() == Venue.Security.TLS ? "imaps" : "imap";
    }

    static String smtpProtocol(Venue.Mailbox box) {
        return box.security() == Venue.Security.TLS ? "smtps" : "smtp";
    }

    /** Connects to the venue's IMAP server and logs in. */
    public Store connect(Venue.Mailbox box, String secret) {
        try {
            Store store = session(box).getStore(imapProtocol(box));
            store.connect(box.imapHost(), box.imapPort(), box.login(), secret);
            return store;
        } catch (MessagingException e) {
            throw unavailable(box, "IMAP", e);
        }
    }

    /** Whether a message with {@code messageId} is in the mailbox's sent folder. */
    public boolean inSent(Venue.Mailbox box, String secret, String messageId) {
        Store store = connect(box, secret);
        try {
            for (String name : SENT_FOLDERS) {
                Folder folder = store.getFolder(name);
                if (!folder.exists()) {
                    continue;
                }
                folder.open(Folder.READ_ONLY);
                try {
                    if (folder.search(new MessageIDTerm(messageId)).length > 0) {
                        return true;
                    }
                } finally {
                    folder.close(false);
                }
            }
            return false;
        } catch (MessagingException e) {
            throw unavailable(box, "IMAP", e);
        } finally {
            close(store);
        }
    }

    /**
     * Sends the MIME text {@code mime} to {@code recipient} over SMTP; {@link #fileInSent} files the copy.
     *
     * @throws OutcomeUnknownException {@code E_OUTCOME_UNKNOWN} when the server was given the mail and
     *     its answer never came (a timeout after DATA): it may have gone; never to be sent again blind
     * @throws WeftException {@code E_MAIL_UNAVAILABLE} (transient when the server cannot be reached) when
     *     the server refused or failed before it was given the mail: nothing went out
     */
    public void send(Venue.Mailbox box, String secret, String mime, String recipient) {
        Session session = session(box);
        Submission message;
        try {
            message = new Submission(
                    new MimeMessage(session, new ByteArrayInputStream(mime.getBytes(StandardCharsets.UTF_8))));
        } catch (MessagingException e) {
            throw new WeftException(
                    ErrorCode.E_TOOL_FAILED, "the recorded reply cannot be read back: " + e.getMessage());
        }
        boolean accepted = false;
        try (Transport transport = session.getTransport(smtpProtocol(box))) {
            transport.connect(box.smtpHost(), box.smtpPort(), box.login(), secret);
            transport.sendMessage(message, new InternetAddress[] {new InternetAddress(recipient)});
            accepted = true;
        } catch (MessagingException e) {
            if (accepted) {
                // Only the goodbye failed: the server had answered that it took the mail.
            } else if (message.written()) {
                throw new OutcomeUnknownException(
                        "the reply to " + recipient + " may have been sent: SMTP " + box.smtpHost() + ":"
                                + box.smtpPort() + " took it and did not answer (" + e.getMessage() + ")",
                        e);
            } else {
                throw unavailable(box, "SMTP", e);
            }
        }
    }

    /**
     * Files a copy of the sent MIME text {@code mime} in {@code Sent}: the trace an attempt made again
     * (after a crash) finds the reply by. Best effort: a failure here leaves the reply sent, and the
     * outbox row, marked sent next, says so.
     */
    public void fileInSent(Venue.Mailbox box, String secret, String mime) {
        try {
            MimeMessage message =
                    new MimeMessage(session(box), new ByteArrayInputStream(mime.getBytes(StandardCharsets.UTF_8)));
            Store store = connect(box, secret);
            try {
                Folder sent = store.getFolder("Sent");
                if (!sent.exists()) {
                    sent.create(Folder.HOLDS_MESSAGES);
                }
                sent.open(Folder.READ_WRITE);
                message.setFlag(Flags.Flag.SEEN, true);
                sent.appendMessages(new Message[] {message});
                sent.close(false);
            } finally {
                close(store);
            }
        } catch (MessagingException | WeftException e) {
            // the reply went: only the copy that would help a later recovery is missing
        }
    }

    private static void close(Store store) {
        try {
            store.close();
        } catch (MessagingException ignored) {
            // closing: nothing left to lose
        }
    }

    /** What a server's failure is: transient when it cannot be reached, not when it refuses the login. */
    public static WeftException unavailable(Venue.Mailbox box, String server, MessagingException e) {
        String where = server + " "
                + (server.equals("IMAP")
                        ? box.imapHost() + ":" + box.imapPort()
                        : box.smtpHost() + ":" + box.smtpPort());
        if (e instanceof AuthenticationFailedException) {
            return new WeftException(
                    ErrorCode.E_MAIL_UNAVAILABLE,
                    where + " refused the login of " + box.login()
                            + ": check the password ('weft mailflow venue add' to change it)");
        }
        Throwable cause = e;
        while (cause != null) {
            if (cause instanceof ConnectException
                    || cause instanceof SocketTimeoutException
                    || cause instanceof UnknownHostException
                    || cause instanceof NoRouteToHostException) {
                return new TransientException(
                        ErrorCode.E_MAIL_UNAVAILABLE, "cannot reach " + where + ": " + cause.getMessage(), e);
            }
            cause = cause.getCause();
        }
        return new WeftException(
                ErrorCode.E_MAIL_UNAVAILABLE,
                where + " failed: "
                        + String.valueOf(e.getMessage())
                                .toLowerCase(Locale.ROOT)
                                .strip());
    }
}
