package dev.weft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

final class TimeCommandTest {
    private static final String NOW = "2026-11-21T14:30:00+02:00";

    record Outcome(int exitCode, String out, String err) {
        JsonNode json() {
            return Json.parse(out, "command output");
        }
    }

    static Outcome time(String... args) {
        CommandLine commandLine = new CommandLine(new TimeCommand());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int code = commandLine.execute(args);
        return new Outcome(code, out.toString(), err.toString());
    }

    @Test
    void printsTheInstantAsJson() {
        Outcome o = time("parse", "--now", NOW, "--json", "remind me tomorrow at 9 to call Dana");

        assertThat(o.exitCode()).isZero();
        JsonNode json = o.json();
        assertThat(json.get("text").asText()).isEqualTo("tomorrow at 9");
        assertThat(json.get("type").asText()).isEqualTo("instant");
        assertThat(json.get("value").asText()).isEqualTo("2026-11-22T09:00:00+02:00");
        assertThat(json.get("grain").asText()).isEqualTo("hour");
        assertThat(json.get("span").get(0).asInt()).isEqualTo(10);
        assertThat(json.get("span").get(1).asInt()).isEqualTo(23);
    }

    @Test
    void printsIntervalsAndRecurrencesInHebrew() {
        Outcome interval = time("parse", "--lang", "he", "--now", NOW, "--json", "מ-2 עד 4");
        assertThat(interval.json().get("type").asText()).isEqualTo("interval");
        assertThat(interval.json().get("from").asText()).isEqualTo("2026-11-22T14:00:00+02:00");
        assertThat(interval.json().get("to").asText()).isEqualTo("2026-11-22T16:00:00+02:00");
        assertThat(interval.json().get("end").asText()).isEqualTo("2026-11-22T16:00:00+02:00");

        Outcome recurrence = time("parse", "--now", NOW, "--json", "כל", "יום", "שני", "וחמישי", "ב-18:00");
        assertThat(recurrence.json().get("rrule").asText()).isEqualTo("FREQ=WEEKLY;BYDAY=MO,TH;BYHOUR=18;BYMINUTE=0");
    }

    @Test
    void readsRussianByItsCodeOrByItsLetters() {
        Outcome byCode = time("parse", "--lang", "ru", "--now", NOW, "--json", "напомни завтра в 9 утра");
        assertThat(byCode.exitCode()).isZero();
        assertThat(byCode.json().get("text").asText()).isEqualTo("завтра в 9 утра");
        assertThat(byCode.json().get("value").asText()).isEqualTo("2026-11-22T09:00:00+02:00");

        Outcome byLetters = time("parse", "--now", NOW, "--json", "по пятницам в 18:00");
        assertThat(byLetters.json().get("rrule").asText()).isEqualTo("FREQ=WEEKLY;BYDAY=FR;BYHOUR=18;BYMINUTE=0");
    }

    @Test
    void saysWhenAnIntervalIsOverAndKeepsTheSecondsOfNowInAnAmount() {
        Outcome weeks = time("parse", "--now", NOW, "upcoming three weeks");
        assertThat(weeks.out().strip())
                .isEqualTo("interval 2026-11-23T00:00:00+02:00 .. 2026-12-07T00:00:00+02:00 (week),"
                        + " until 2026-12-14T00:00:00+02:00 \"upcoming three weeks\" [0,20]");

        Outcome minute = time("parse", "--now", "2026-11-21T10:42:50+02:00", "--json", "in 1 minute");
        assertThat(minute.json().get("value").asText()).isEqualTo("2026-11-21T10:43:50+02:00");
        assertThat(minute.json().get("grain").asText()).isEqualTo("second");
    }

    @Test
    void putsValuesInTheZoneOfTz() {
        Outcome o = time("parse", "--now", "2026-07-01T09:00:00Z", "--tz", "Asia/Jerusalem", "--json", "tomorrow at 9");

        assertThat(o.json().get("value").asText()).isEqualTo("2026-07-02T09:00:00+03:00");
    }

    @Test
    void readsNextWeekdayAsTheComingOneByDefaultAndAsNextWeeksWithFollowing() {
        // Saturday 2026-11-21; the English week starts on Monday, so Sunday the 22nd is still this week's
        Outcome coming = time("parse", "--now", NOW, "--json", "next Sunday");
        assertThat(coming.json().get("value").asText()).isEqualTo("2026-11-22T00:00:00+02:00");

        Outcome following = time("parse", "--now", NOW, "--next-weekday", "following", "--json", "next Sunday");
        assertThat(following.exitCode()).isZero();
        assertThat(following.json().get("value").asText()).isEqualTo("2026-11-29T00:00:00+02:00");

        Outcome explicit = time("parse", "--now", NOW, "--next-weekday", "coming", "--json", "next Sunday");
        assertThat(explicit.json().get("value").asText()).isEqualTo("2026-11-22T00:00:00+02:00");
    }

    @Test
    void rejectsAnUnknownNextWeekdayReadingWithExitTwo() {
        Outcome o = time("parse", "--now", NOW, "--next-weekday", "soonest", "next Sunday");

        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).startsWith("weft: E_BAD_INPUT: ").contains("soonest");
    }

    @Test
    void printsTypeNoneWhenTheTextHasNoTime() {
        Outcome o = time("parse", "--now", NOW, "--json", "buy milk");

        assertThat(o.exitCode()).isZero();
        assertThat(o.json().get("type").asText()).isEqualTo("none");
    }

    @Test
    void printsAReadableLineWithoutJson() {
        Outcome o = time("parse", "--now", NOW, "in 15 minutes");

        assertThat(o.out().strip()).isEqualTo("instant 2026-11-21T14:45:00+02:00 (second) \"in 15 minutes\" [0,13]");
    }

    @Test
    void printsEveryExpressionWithAll() {
        Outcome o = time("parse", "--now", NOW, "--json", "--all", "call at 9 and again tomorrow at 5pm");

        assertThat(o.out().strip().lines()).hasSize(2);
    }

    @Test
    void rejectsEmptyTextWithExitTwo() {
        Outcome o = time("parse", "--now", NOW, "  ");

        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).startsWith("weft: E_BAD_INPUT: ");
        assertThat(o.out()).isEmpty();
    }

    @Test
    void rejectsAnInvalidNowWithExitTwo() {
        Outcome o = time("parse", "--now", "tomorrow", "at 9");

        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("E_BAD_INPUT").contains("--now");
    }

    @Test
    void rejectsAMissingNowWithExitTwo() {
        assertThat(time("parse", "at 9").exitCode()).isEqualTo(2);
    }

    @Test
    void rejectsAnUnknownLanguageWithExitTwo() {
        Outcome o = time("parse", "--lang", "fr", "--now", NOW, "demain");

        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("E_BAD_INPUT").contains("fr");
    }

    @Test
    void rejectsAnUnknownZoneWithExitTwo() {
        Outcome o = time("parse", "--tz", "Mars/Olympus", "--now", NOW, "at 9");

        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("E_BAD_INPUT").contains("Mars/Olympus");
    }

    @Test
    void rejectsAnUnknownOptionWithExitTwo() {
        assertThat(time("parse", "--when", NOW, "at 9").exitCode()).isEqualTo(2);
    }

    @Test
    void answersEveryBatchLineInOrderAndGoesOnAfterAMalformedOne(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("batch.jsonl");
        Files.write(
                file,
                List.of(
                        "{\"text\": \"tomorrow at 9\", \"lang\": \"en\", \"now\": \"" + NOW + "\"}",
                        "{\"text\": \"tomorrow at",
                        "{\"text\": \"בעוד רבע שעה\", \"lang\": \"he\", \"now\": \"" + NOW + "\"}",
                        "{\"text\": \"at 9\", \"lang\": \"xx\", \"now\": \"" + NOW + "\"}",
                        "{\"text\": \"buy milk\", \"lang\": \"en\", \"now\": \"" + NOW + "\"}"),
                StandardCharsets.UTF_8);

        Outcome o = time("parse", "--batch", file.toString(), "--json");

        assertThat(o.exitCode()).isZero();
        List<JsonNode> lines =
                o.out().lines().map(l -> Json.parse(l, "output line")).toList();
        assertThat(lines).hasSize(5);
        assertThat(lines.get(0).get("value").asText()).isEqualTo("2026-11-22T09:00:00+02:00");
        assertThat(lines.get(1).get("error").get("code").asText()).isEqualTo("E_BAD_INPUT");
        assertThat(lines.get(2).get("value").asText()).isEqualTo("2026-11-21T14:45:00+02:00");
        assertThat(lines.get(3).get("error").get("code").asText()).isEqualTo("E_BAD_INPUT");
        assertThat(lines.get(4).get("type").asText()).isEqualTo("none");
    }

    @Test
    void rejectsAMissingBatchFileWithExitTwo(@TempDir Path dir) {
        Outcome o = time("parse", "--batch", dir.resolve("none.jsonl").toString());

        assertThat(o.exitCode()).isEqualTo(2);
        assertThat(o.err()).contains("E_BAD_INPUT");
    }
}
