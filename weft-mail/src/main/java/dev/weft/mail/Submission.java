package dev.weft.mail;

import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A message on its way to an SMTP server that notes when its content began to go out: the server
 * answered DATA, so from then on it may take the mail whatever happens next, and a failure (a timeout
 * waiting for its answer to the final dot) no longer means the mail was not sent. Keeps the
 * Message-ID it was given. Used by one send on one thread.
 */
public final class Submission extends MimeMessage {
    private volatile boolean written;

    public Submission(MimeMessage source) throws MessagingException {
        super(source);
    }

    @Override
    public void writeTo(OutputStream out, String[] ignoreList) throws IOException, MessagingException {
        written = true;
        super.writeTo(out, ignoreList);
    }

    /** Whether the server was sent the content: after this, its outcome is known only from its answer. */
    public boolean written() {
        return written;
    }

    @Override
    protected void updateMessageID() {
        // The Message-ID is the call's: the trace a later attempt finds the mail by.
    }
}
