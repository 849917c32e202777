package dev.weft.mailflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The offline venue agent measured on a corpus of inquiry emails in English and Hebrew (many ways of
 * saying dates, guest counts, events, budgets, and emails that lack something or ask nothing): each
 * counts when its dates, guests, language, whether it was an inquiry, whether the reply asks a
 * question, and the rooms offered are all right. Fails under 90 % in either language.
 */
final class InquiryCorpusTest {
    @TempDir
    Path dir;

    @Test
    void theOfflineAgentAnswersNineInTenInquiriesRightInEachLanguage() throws IOException {
        RunStore store = Fixtures.sqlite(dir);
        try {
            Mailflow mailflow = Fixtures.mailflow(store, dir);
            Mailflow.VenueSettings settings = Fixtures.oliveGrove("corpus", Optional.empty());
            mailflow.addVenue(new Mailflow.VenueSettings(
                    settings.id(),
                    settings.organization(),
                    settings.name(),
                    settings.address(),
                    settings.zone(),
                    settings.language(),
                    settings.send(),
                    Optional.of(List.of(
                            new Venue.Room("Garden", 150),
                            new Venue.Room("Hall", 200),
                            new Venue.Room("Salon", 40),
                            new Venue.Room("Terrace", 80))),
                    Optional.of(List.of(
                            booking("Hall", "2026-12-12"),
                            booking("Garden", "2026-06-12"),
                            booking("Terrace", "2026-05-16"),
                            booking("Salon", "2026-04-18"),
                            booking("Garden", "2026-07-04"),
                            booking("Hall", "2026-07-04"))),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty()));
            Runner runner = Fixtures.runner(store);
            int[] total = new int[2];
            int[] right = new int[2];
            List<String> wrong = new ArrayList<>();
            int n = 0;
            for (String file : List.of("inquiries.jsonl", "inquiries-2.jsonl", "inquiries-3.jsonl"))
                try (BufferedReader lines = new BufferedReader(new InputStreamReader(
                        InquiryCorpusTest.class.getResourceAsStream("/corpus/" + file), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = lines.readLine()) != null) {
                        if (line.isBlank()) {
                            continue;
                        }
                        JsonNode row = Json.parse(line, "corpus line " + ++n);
                        ObjectNode email = Json.object();
                        email.put("from", "sender" + n + "@example.com");
                        email.put("fromName", row.path("fromName").asText(""));
                        email.put("subject", row.path("subject").asText(""));
                        email.put("text", row.path("text").asText());
                        JsonNode out = mailflow.deliver(
                                        runner,
                                        new Mailflow.Delivery(
                                                "corpus",
                                                new Mailflow.Source.Normalized(email),
                                                "cli",
                                                Optional.of(Fixtures.NOW),
                                                true))
                                .toJson();
                        int language = row.path("lang").asText().equals("he") ? 1 : 0;
                        total[language]++;
                        List<String> problems = problems(row, out);
                        if (problems.isEmpty()) {
                            right[language]++;
                        } else {
                            wrong.add(n + " [" + row.path("lang").asText() + "] "
                                    + row.path("text").asText() + "\n      " + String.join("; ", problems));
                        }
                    }
                }
            System.out.printf(
                    "mailflow corpus: English %d/%d (%.1f%%), Hebrew %d/%d (%.1f%%)%n",
                    right[0], total[0], 100.0 * right[0] / total[0], right[1], total[1], 100.0 * right[1] / total[1]);
            wrong.forEach(w -> System.out.println("  wrong: " + w));
            assertThat(total[0]).isGreaterThanOrEqualTo(50);
            assertThat(total[1]).isGreaterThanOrEqualTo(50);
            assertThat(100.0 * right[0] / total[0]).as("English accuracy").isGreaterThanOrEqualTo(90.0);
            assertThat(100.0 * right[1] / total[1]).as("Hebrew accuracy").isGreaterThanOrEqualTo(90.0);
        } finally {
            store.close();
        }
    }

    private static Venue.Booking booking(String room, String day) {
        return new Venue.Booking(room, LocalDate.parse(day));
    }

    private static List<String> problems(JsonNode row, JsonNode out) {
        List<String> problems = new ArrayList<>();
        JsonNode parsed = out.path("parsed");
        if (parsed.path("inquiry").asBoolean() != row.path("inquiry").asBoolean()) {
            problems.add("inquiry " + parsed.path("inquiry") + ", expected " + row.path("inquiry"));
        }
        if (!row.path("inquiry").asBoolean()) {
            return problems;
        }
        TreeSet<String> dates = new TreeSet<>();
        parsed.path("dates").forEach(d -> dates.add(d.asText()));
        TreeSet<String> expected = new TreeSet<>();
        row.path("dates").forEach(d -> expected.add(d.asText()));
        if (!dates.equals(expected)) {
            problems.add("dates " + dates + ", expected " + expected);
        }
        if (!parsed.path("guests").equals(row.path("guests"))) {
            problems.add("guests " + parsed.path("guests") + ", expected " + row.path("guests"));
        }
        JsonNode reply = out.path("reply");
        if (!reply.path("language").asText().equals(row.path("lang").asText())) {
            problems.add("reply language " + reply.path("language") + ", expected " + row.path("lang"));
        }
        boolean asks = reply.path("body").asText().contains("?");
        if (asks != row.path("question").asBoolean()) {
            problems.add(row.path("question").asBoolean() ? "the reply asks nothing" : "the reply asks a question");
        }
        if (row.has("offered") && !reply.path("offered").equals(row.path("offered"))) {
            problems.add("offered " + reply.path("offered") + ", expected " + row.path("offered"));
        }
        return problems;
    }
}
