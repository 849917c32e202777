package dev.weft.concierge.shop;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;

/** Codes mailed over plain SMTP with Jakarta Mail (Angus). Thread-safe. */
final class SmtpCodeSender implements CodeSender {
    private final URI smtp;
    private final String from;
    private final Session session;

    SmtpCodeSender(URI smtp, String from) {
        this.smtp = Objects.requireNonNull(smtp, "smtp");
        this.from = Objects.requireNonNull(from, "from");
        Properties properties = new Properties();
        properties.put("mail.smtp.host", smtp.getHost());
        properties.put("mail.smtp.port", String.valueOf(smtp.getPort()));
        properties.put("mail.smtp.connectiontimeout", "10000");
        properties.put("mail.smtp.timeout", "10000");
        properties.put("mail.smtp.writetimeout", "10000");
        this.session = Session.getInstance(properties);
    }

    @Override
    public void send(String to, String code, Duration validFor) {
        try {
            MimeMessage mail = new MimeMessage(session);
            mail.setFrom(new InternetAddress(from));
            mail.setRecipients(Message.RecipientType.TO, InternetAddress.parse(to, true));
            mail.setSubject("Your code: " + code + " / הקוד שלך", StandardCharsets.UTF_8.name());
            long minutes = Math.max(1, validFor.toMinutes());
            mail.setText(
                    "Your code is " + code + ". Say it to the shop's concierge to go on; it is valid for " + minutes
                            + " minutes. If you did not ask for it, ignore this mail: nothing changes without it.\n\n"
                            + "הקוד שלך הוא " + code + ". אמרו אותו לנציג החנות כדי להמשיך; הוא בתוקף " + minutes
                            + " דקות. אם לא ביקשתם אותו, התעלמו מהמייל: בלעדיו שום דבר לא משתנה.\n",
                    StandardCharsets.UTF_8.name());
            Transport.send(mail);
        } catch (MessagingException e) {
            throw new WeftException(
                    ErrorCode.E_MAIL_UNAVAILABLE,
                    "cannot mail the code through " + smtp.getHost() + ":" + smtp.getPort() + ": " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "SmtpCodeSender[" + smtp + "]";
    }
}
