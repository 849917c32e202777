package dev.weft.mailflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An email about a booking its sender already has — to confirm it (a read), to move or to cancel it —
 * goes to a person, in English and Hebrew: the offline agent offers no room for it as if it were a new
 * inquiry, and replies nothing. Whether it reads or changes is the language layer's call.
 */
final class ExistingBookingTest {
    @TempDir
    Path dir;

    private RunStore store;
    private Mailflow mailflow;
    private Runner runner;
    private int sent;

    @BeforeEach
    void open() {
        store = Fixtures.sqlite(dir);
        mailflow = Fixtures.mailflow(store, dir);
        mailflow.addVenue(Fixtures.oliveGrove("olive", Optional.empty()));
        runner = Fixtures.runner(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "Can you confirm my booking for Friday? | confirm",
                "Hi, could you confirm our reservation for December 12 for 80 guests? Thanks, Dana | confirm",
                "Just checking that our wedding on December 12 is still booked for 120 guests? | confirm",
                "האם תוכלו לאשר את ההזמנה שלנו ליום שישי? | confirm",
                "רציתי לוודא שהחתונה שלנו ב-12 בדצמבר עדיין בתוקף, 120 אורחים | confirm",
                "We need to move our event from December 12 to December 19, 80 guests. | change",
                "Can we change our party on December 12 to 100 guests instead of 80? | change",
                "נצטרך להזיז את האירוע שלנו מה-12 ל-19 בדצמבר, 80 אורחים | change",
                "Please cancel our booking on December 12. | cancel",
                "אני רוצה לבטל את האירוע שלנו ב-12 בדצמבר | cancel",
            })
    void anEmailAboutABookingTheSenderHasGoesToAPersonAndOffersNothing(String text, String intent) {
        JsonNode out = deliver(text);

        assertThat(out.path("parsed").path("inquiry").asBoolean()).isFalse();
        assertThat(out.path("handoff").asText())
                .isEqualTo("not a booking inquiry (" + intent + "): for a person to answer");
        assertThat(out.path("reply").path("body").asText("")).isEmpty();
        assertThat(out.path("reply").path("offered")).isEmpty();
    }

    @Test
    void anInquiryThatAsksToConfirmAvailabilityIsStillAnInquiry() {
        JsonNode asks = deliver("Do you have availability on December 19 for 80 guests for a wedding?");
        JsonNode books =
                deliver("We'd like to book a birthday party for 40 people on January 9. Please confirm availability.");

        assertThat(asks.path("parsed").path("inquiry").asBoolean()).isTrue();
        assertThat(asks.path("reply").path("offered")).isNotEmpty();
        assertThat(books.path("parsed").path("inquiry").asBoolean()).isTrue();
        assertThat(books.path("reply").path("offered")).isNotEmpty();
    }

    private JsonNode deliver(String text) {
        ObjectNode email = Json.object();
        email.put("from", "sender" + ++sent + "@example.com");
        email.put("fromName", "");
        email.put("subject", "");
        email.put("text", text);
        return mailflow.deliver(
                        runner,
                        new Mailflow.Delivery(
                                "olive", new Mailflow.Source.Normalized(email), "cli", Optional.of(Fixtures.NOW), true))
                .toJson();
    }
}
