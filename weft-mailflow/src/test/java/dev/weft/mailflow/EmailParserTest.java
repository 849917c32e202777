package dev.weft.mailflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

final class EmailParserTest {
    @Test
    void plainTextKeepsTheThreadAndSetsTheSignatureApart() {
        Email email = EmailParser.parse(Fixtures.email("inquiry-en-plain.eml"));
        assertThat(email.messageId()).isEqualTo("<CAF7x1=inquiry-en-plain@mail.example.com>");
        assertThat(email.from()).isEqualTo("dana.cohen@example.com");
        assertThat(email.fromName()).isEqualTo("Dana Cohen");
        assertThat(email.subject()).isEqualTo("Wedding on 12 December");
        assertThat(email.text()).contains("about 120 guests").endsWith("Dana").doesNotContain("+972");
        assertThat(email.signature()).contains("+972 52 555 0101");
        assertThat(email.date()).isPresent();
    }

    @Test
    void multipartAlternativeIsReadFromItsPlainPartDecodedFromQuotedPrintable() {
        Email email = EmailParser.parse(Fixtures.email("inquiry-multipart-alternative.eml"));
        assertThat(email.text())
                .contains("corporate event for 60 people on March 20")
                .doesNotContain("<b>");
        assertThat(email.fromName()).isEqualTo("Levi, Noa");
    }

    @Test
    void htmlOnlyIsTurnedIntoTextWithTheQuotedReplySetApart() {
        Email email = EmailParser.parse(Fixtures.email("inquiry-html-only.eml"));
        assertThat(email.text())
                .contains("June 5 or June 12")
                .contains("Cheers,\nMark")
                .doesNotContain("color: red");
        assertThat(email.text()).doesNotContain("We have no room free");
        assertThat(email.quoted()).contains("We have no room free on 29 May");
        assertThat(email.inReplyTo()).contains("<older-1@mail.example.org>");
        assertThat(email.references()).containsExactly("<older-1@mail.example.org>");
    }

    @Test
    void hebrewInWindows1255IsDecodedBodyAndHeaders() {
        Email email = EmailParser.parse(Fixtures.email("inquiry-he-windows-1255.eml"));
        assertThat(email.subject()).isEqualTo("חתונה בדצמבר");
        assertThat(email.fromName()).isEqualTo("מיכל אברהם");
        assertThat(email.text()).contains("חתונה ב-12 בדצמבר 2026, כ-150 אורחים");
    }

    @Test
    void hebrewInIso88598iIsDecodedThoughJavaDoesNotKnowTheName() {
        Email email = EmailParser.parse(Fixtures.email("inquiry-he-iso-8859-8-i.eml"));
        assertThat(email.subject()).isEqualTo("בר מצווה");
        assertThat(email.text()).contains("בר מצווה ביום שישי הבא לכ-80 איש");
    }

    @Test
    void eightBitHebrewWithNoCharsetIsRecognised() {
        String raw = "From: a@b.example\r\nSubject: x\r\nMessage-ID: <x@b>\r\n\r\n";
        byte[] head = raw.getBytes(StandardCharsets.US_ASCII);
        byte[] body = "שלום, יש מקום?".getBytes(java.nio.charset.Charset.forName("windows-1255"));
        byte[] all = new byte[head.length + body.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        assertThat(EmailParser.parse(all).text()).isEqualTo("שלום, יש מקום?");
    }

    @Test
    void aReplyKeepsOnlyWhatTheSenderWroteAndItsThread() {
        Email email = EmailParser.parse(Fixtures.email("reply-with-quote.eml"));
        assertThat(email.text()).isEqualTo("We will be 70 guests.");
        assertThat(email.quoted()).contains("How many guests are you expecting?");
        assertThat(email.references())
                .containsExactly("<first-question@mail.example.com>", "<earlier-question@olivegrove.example>");
    }

    @Test
    void aForwardedMessageStaysInTheText() {
        Email email = EmailParser.parse(Fixtures.email("forwarded.eml"));
        assertThat(email.forwarded()).isTrue();
        assertThat(email.text()).contains("Could you host this one?").contains("from 14 to 15 May 2026, 90 attendees");
    }

    @Test
    void attachmentsAreListedNotRead() {
        Email email = EmailParser.parse(Fixtures.email("with-attachment.eml"));
        assertThat(email.attachments()).singleElement().satisfies(a -> {
            assertThat(a.name()).isEqualTo("floor plan.pdf");
            assertThat(a.type()).isEqualTo("application/pdf");
            assertThat(a.size()).isGreaterThan(100);
        });
        assertThat(email.text()).contains("graduation party").doesNotContain("iPhone");
        assertThat(email.signature()).contains("Sent from my iPhone");
    }

    @Test
    void autoReplyAndBounceHeadersAreKeptForTheFilters() {
        assertThat(EmailParser.parse(Fixtures.email("out-of-office.eml")).header("Auto-Submitted"))
                .contains("auto-replied");
        assertThat(EmailParser.parse(Fixtures.email("bounce.eml")).header("content-type"))
                .hasValueSatisfying(v -> assertThat(v).contains("multipart/report"));
    }

    @Test
    void malformedMimeIsEmailInvalid() {
        assertThatThrownBy(() -> EmailParser.parse(Fixtures.email("malformed.eml")))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_EMAIL_INVALID))
                .hasMessageContaining("malformed email");
    }

    @Test
    void textThatIsNoEmailAtAllIsEmailInvalid() {
        assertThatThrownBy(() -> EmailParser.parse("just some words".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_EMAIL_INVALID))
                .hasMessageContaining("no From header");
        assertThatThrownBy(() -> EmailParser.parse(new byte[0])).hasMessageContaining("empty");
    }

    @Test
    void aMessageOverTheLimitIsTooLarge() {
        assertThatThrownBy(() -> EmailParser.parse(new byte[EmailParser.MAX_BYTES + 1]))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_TOO_LARGE));
    }
}
