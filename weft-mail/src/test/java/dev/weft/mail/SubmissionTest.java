package dev.weft.mail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A submission to a real SMTP server (GreenMail) behind {@link SilentSmtp}: it tells a mail refused
 * before DATA from one whose content went out and whose answer was lost, and keeps the caller's
 * Message-ID, the trace a later attempt finds the mail by.
 */
final class SubmissionTest {
    private final GreenMail mail = new GreenMail(ServerSetupTest.SMTP);
    private SilentSmtp relay;

    @BeforeEach
    void start() throws Exception {
        mail.start();
        relay = new SilentSmtp(mail.getSmtp().getPort(), SilentSmtp.Mode.PASS);
    }

    @AfterEach
    void stop() throws Exception {
        relay.close();
        mail.stop();
    }

    private Session session() {
        Properties properties = new Properties();
        properties.put("mail.smtp.host", "127.0.0.1");
        properties.put("mail.smtp.port", Integer.toString(relay.port()));
        properties.put("mail.smtp.timeout", "2000");
        return Session.getInstance(properties);
    }

    private MimeMessage message(Session session) throws MessagingException {
        MimeMessage message = new MimeMessage(session);
        message.setFrom(new InternetAddress("dana@example.com"));
        message.setRecipient(Message.RecipientType.TO, new InternetAddress("omer@example.com"));
        message.setSubject("lunch");
        message.setText("at one?");
        // As the senders do: headers settled first, then the call's own Message-ID in place of the generated one.
        message.saveChanges();
        message.setHeader("Message-ID", "<call-1@weft>");
        return message;
    }

    @Test
    void written_afterADeliveredMailIsTrueAndTheServerHasItUnderTheCallersMessageId() throws Exception {
        Submission submission = new Submission(message(session()));

        Transport.send(submission);

        assertThat(submission.written()).isTrue();
        assertThat(mail.getReceivedMessages()).hasSize(1);
        assertThat(mail.getReceivedMessages()[0].getMessageID()).isEqualTo("<call-1@weft>");
    }

    @Test
    void written_whenTheServerFallsSilentAfterDataIsTrueSoTheOutcomeIsUnknown() throws Exception {
        relay.mode(SilentSmtp.Mode.DELIVER_THEN_SILENT);
        Submission submission = new Submission(message(session()));

        assertThatThrownBy(() -> Transport.send(submission)).isInstanceOf(MessagingException.class);

        assertThat(submission.written()).isTrue();
        assertThat(relay.dataEnds()).isEqualTo(1);
    }

    @Test
    void written_whenTheServerIsGoneBeforeDataIsFalse() throws Exception {
        Session session = session();
        Submission submission = new Submission(message(session));
        mail.stop();

        assertThatThrownBy(() -> Transport.send(submission)).isInstanceOf(MessagingException.class);

        assertThat(submission.written()).isFalse();
        assertThat(relay.dataEnds()).isZero();
    }
}
