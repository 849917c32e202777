package dev.weft.mailflow;

import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;

/** What the tests share: the fixture emails, a store in a temporary directory, and the venue they write to. */
final class Fixtures {
    /** Monday 2 March 2026, 10:00 in Jerusalem. */
    static final Instant NOW = Instant.parse("2026-03-02T08:00:00Z");

    static final ZoneId ZONE = ZoneId.of("Asia/Jerusalem");

    private Fixtures() {}

    static byte[] email(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/emails/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static RunStore sqlite(Path dir) {
        return Stores.open("sqlite:" + dir.resolve("weft.db"));
    }

    static Mailflow mailflow(RunStore store, Path dir) {
        return Mailflow.builder().store(store).keyFile(dir.resolve("mail.key")).build();
    }

    /** Olive Grove: a Garden for 150, a Hall for 200, a Salon for 40; the Hall booked on 12 December 2026. */
    static Mailflow.VenueSettings oliveGrove(String id, Optional<String> organization) {
        return new Mailflow.VenueSettings(
                id,
                organization,
                "Olive Grove",
                "events@olivegrove.example",
                Optional.of(ZONE),
                Optional.of("en"),
                Optional.of(Venue.SendMode.AUTO),
                Optional.of(List.of(
                        new Venue.Room("Garden", 150), new Venue.Room("Hall", 200), new Venue.Room("Salon", 40))),
                Optional.of(List.of(new Venue.Booking("Hall", LocalDate.parse("2026-12-12")))),
                Optional.empty(),
                Optional.empty(),
                Optional.empty());
    }

    static Mailflow.Delivery raw(String venue, String fixture) {
        return new Mailflow.Delivery(venue, new Mailflow.Source.Raw(email(fixture)), "cli", Optional.of(NOW), false);
    }

    static Runner runner(RunStore store) {
        return Runner.builder().store(store).build();
    }
}
