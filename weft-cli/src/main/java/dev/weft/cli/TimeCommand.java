package dev.weft.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.time.Language;
import dev.weft.time.NextWeekday;
import dev.weft.time.TimeExpression;
import dev.weft.time.TimeInputException;
import dev.weft.time.TimeJson;
import dev.weft.time.TimeParser;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code weft time parse}: time expressions in English, Hebrew and Russian, resolved against a given now. */
@Command(
        name = "time",
        mixinStandardHelpOptions = true,
        description = "Time expressions in English, Hebrew and Russian: instants, intervals and recurrences.",
        subcommands = {TimeCommand.ParseCommand.class})
public final class TimeCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(
            name = "parse",
            mixinStandardHelpOptions = true,
            description = {
                "Resolves the time expression in TEXT against --now, or every line of a --batch file.",
                "Exit status: 0 done (also when TEXT holds no time), 2 bad input."
            })
    static final class ParseCommand implements Callable<Integer> {
        private static final TimeParser COMING = TimeParser.create();
        private static final TimeParser FOLLOWING =
                TimeParser.builder().nextWeekday(NextWeekday.FOLLOWING).build();

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(
                names = "--lang",
                paramLabel = "en|he|ru|auto",
                description = "The language of TEXT (default: auto, which reads Hebrew or Cyrillic letters as such).")
        String lang = "auto";

        @Option(
                names = "--now",
                paramLabel = "ISO_OFFSET_DATETIME",
                description = "The reference time, e.g. 2026-11-21T14:30:00+02:00.")
        @Nullable
        String now;

        @Option(names = "--tz", paramLabel = "ZONE", description = "The zone for --now, e.g. Asia/Jerusalem.")
        @Nullable
        String tz;

        @Option(
                names = "--next-weekday",
                paramLabel = "coming|following",
                description = "How 'next Monday' is read: the coming Monday (default) or the Monday of next week.")
        String nextWeekday = "coming";

        @Option(names = "--json", description = "Prints each expression as one JSON object.")
        boolean json;

        @Option(names = "--all", description = "Prints every expression found in TEXT, not only the best reading.")
        boolean all;

        @Option(
                names = "--batch",
                paramLabel = "FILE",
                description = "Reads JSON lines {\"text\", \"lang\", \"now\"}; prints one JSON line per input line.")
        @Nullable
        Path batch;

        @Parameters(paramLabel = "TEXT", arity = "0..*", description = "The text to read.")
        List<String> words = new ArrayList<>();

        private TimeParser parser = COMING;

        @Override
        public Integer call() {
            try {
                parser = NextWeekday.fromLabel(nextWeekday) == NextWeekday.FOLLOWING ? FOLLOWING : COMING;
                return batch != null ? runBatch(batch) : runText();
            } catch (TimeInputException | WeftException e) {
                return badInput(e.getMessage());
            }
        }

        private int runText() {
            if (now == null) {
                return badInput("--now is required (or --batch FILE)");
            }
            String text = String.join(" ", words);
            if (text.isBlank()) {
                return badInput("TEXT must not be empty");
            }
            ZonedDateTime reference = reference(now, tz);
            Language language = Language.fromCode(lang);
            PrintWriter out = spec.commandLine().getOut();
            if (all) {
                List<TimeExpression> found = parser.find(text, reference, language);
                if (found.isEmpty()) {
                    out.println(json ? TimeJson.none(text) : "none");
                }
                for (TimeExpression e : found) {
                    out.println(json ? TimeJson.toJson(e) : readable(e));
                }
            } else {
                Optional<TimeExpression> best = parser.parse(text, reference, language);
                out.println(
                        json
                                ? TimeJson.toJson(best, text)
                                : best.map(ParseCommand::readable).orElse("none"));
            }
            out.flush();
            return ExitCodes.OK;
        }

        private int runBatch(Path file) {
            List<String> lines;
            try {
                lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            } catch (IOException | java.io.UncheckedIOException e) {
                return badInput("cannot read batch file " + file + ": " + e.getMessage());
            }
            Language defaultLanguage = Language.fromCode(lang);
            PrintWriter out = spec.commandLine().getOut();
            for (String line : lines) {
                out.println(batchLine(line, defaultLanguage));
            }
            out.flush();
            return ExitCodes.OK;
        }

        /** The answer to one batch line: the best reading, or an error object; never throws on bad input. */
        private String batchLine(String line, Language defaultLanguage) {
            try {
                JsonNode request = Json.parse(line, "batch line");
                if (!request.isObject()) {
                    throw new TimeInputException("batch line must be a JSON object");
                }
                JsonNode text = request.get("text");
                if (text == null || !text.isTextual()) {
                    throw new TimeInputException("batch line needs \"text\" (a string)");
                }
                JsonNode nowField = request.get("now");
                String nowText = nowField != null && nowField.isTextual() ? nowField.asText() : now;
                if (nowText == null) {
                    throw new TimeInputException("batch line needs \"now\" (or --now)");
                }
                JsonNode langField = request.get("lang");
                Language language = langField != null
                                && langField.isTextual()
                                && !langField.asText().isBlank()
                        ? Language.fromCode(langField.asText())
                        : defaultLanguage;
                JsonNode tzField = request.get("tz");
                ZonedDateTime reference =
                        reference(nowText, tzField != null && tzField.isTextual() ? tzField.asText() : tz);
                return TimeJson.toJson(parser.parse(text.asText(), reference, language), text.asText());
            } catch (TimeInputException | WeftException e) {
                return TimeJson.error("E_BAD_INPUT", e.getMessage());
            }
        }

        private int badInput(@Nullable String message) {
            PrintWriter err = spec.commandLine().getErr();
            err.println("weft: E_BAD_INPUT: " + message);
            err.flush();
            return ExitCodes.INVALID;
        }

        /** The reference time: an ISO offset date-time, in {@code zone} when one is given. */
        static ZonedDateTime reference(String now, @Nullable String zone) {
            ZonedDateTime reference;
            try {
                reference = now.contains("[")
                        ? ZonedDateTime.parse(now)
                        : OffsetDateTime.parse(now).toZonedDateTime();
            } catch (DateTimeParseException e) {
                throw new TimeInputException("invalid --now '" + now
                        + "': expected an ISO date-time with offset, like 2026-11-21T14:30:00+02:00");
            }
            if (zone == null) {
                return reference;
            }
            try {
                return reference.withZoneSameInstant(ZoneId.of(zone));
            } catch (DateTimeException e) {
                throw new TimeInputException("unknown zone '" + zone + "'");
            }
        }

        static String readable(TimeExpression e) {
            String where = " \"" + e.text() + "\" [" + e.span().start() + ","
                    + e.span().end() + "]";
            return switch (e) {
                case TimeExpression.Instant i ->
                    "instant " + TimeJson.iso(i.value()) + " (" + i.grain().label() + ")" + where;
                case TimeExpression.Interval i ->
                    "interval " + TimeJson.iso(i.from()) + " .. " + TimeJson.iso(i.to()) + " ("
                            + i.grain().label() + "), until " + TimeJson.iso(i.end()) + where;
                case TimeExpression.Recurrence r ->
                    "recurrence " + r.toRrule() + ", first " + TimeJson.iso(r.first()) + where;
            };
        }
    }
}
