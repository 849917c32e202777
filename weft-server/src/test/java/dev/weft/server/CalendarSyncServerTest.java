package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.spi.RunStore;
import dev.weft.memo.Memo;
import dev.weft.memo.MemoAssistant;
import dev.weft.memo.Radicale;
import dev.weft.memo.data.CalendarAccounts;
import dev.weft.memo.data.Event;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weft serve} keeps each user's connected CalDAV calendar in sync while it runs (Debian's Radicale). */
final class CalendarSyncServerTest {
    @TempDir
    Path dir;

    @Test
    void theServerBringsInWhatChangesOnEachUsersCalendar() throws Exception {
        try (Radicale radicale = Radicale.start(dir.resolve("radicale"), Map.of("dana", "dana-pw", "omer", "omer-pw"));
                RunStore store = Stores.open("sqlite:" + dir.resolve("weft.db"))) {
            Memo memo = Memo.open(store);
            memo.data().calendars().secrets().useKeyFile(dir.resolve("mail.key"));
            for (String user : new String[] {"dana", "omer"}) {
                radicale.makeCalendar(user, "Home");
                memo.data().user(user, "en", ZoneId.of("Asia/Jerusalem"), Instant.now());
                memo.data()
                        .caldav()
                        .connect(
                                user,
                                radicale.url().toString(),
                                user,
                                CalendarAccounts.Auth.PASSWORD,
                                user + "-pw",
                                Optional.empty(),
                                ZoneId.of("Asia/Jerusalem"),
                                Instant.now());
            }
            WeftServer server = WeftServer.builder()
                    .store(store)
                    .assistants(ServerFixture.memo(memo))
                    .port(0)
                    .reminders(false)
                    .recoveryInterval(Duration.ZERO)
                    .webhookInterval(Duration.ZERO)
                    .serviceInterval(MemoAssistant.CALENDAR_SYNC, Duration.ofMillis(100))
                    .start();
            try {
                radicale.put("dana", "home", "a.ics", event("a", "Dana's dentist"));
                radicale.put("omer", "home", "b.ics", event("b", "Omer's gym"));
                long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
                while ((memo.data().events().all("dana").isEmpty()
                                || memo.data().events().all("omer").isEmpty())
                        && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
            } finally {
                server.close();
            }

            assertThat(memo.data().events().all("dana"))
                    .extracting(Event::summary)
                    .containsExactly("Dana's dentist");
            assertThat(memo.data().events().all("omer"))
                    .extracting(Event::summary)
                    .containsExactly("Omer's gym");
        }
    }

    private static String event(String uid, String summary) {
        return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\nBEGIN:VEVENT\r\nUID:" + uid
                + "\r\nDTSTAMP:20261124T080000Z\r\nDTSTART:20261125T130000Z\r\nDTEND:20261125T140000Z\r\nSUMMARY:"
                + summary + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    }
}
