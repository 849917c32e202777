package dev.weft.memo.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.WeftException;
import dev.weft.language.EntityMatch;
import dev.weft.memo.data.Event;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.User;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import dev.weft.plan.ResolverRegistry;
import dev.weft.time.Language;
import dev.weft.time.TimeExpression;
import dev.weft.time.TimeParser;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Memo's offline resolvers (seed 002): tasks, lists and the calendar turned into {@code
 * taskOperations}, {@code listOperations} and {@code calendarOperations} calls, the user's words
 * looked up among their own tasks, lists and events (several matches → a numbered question in their
 * language; none → {@code E_NOT_FOUND}), and the conversational and help answers. Thread-safe.
 */
public final class MemoResolvers {
    public static final String RESPOND = "respond";

    private static final DateTimeFormatter HH_MM = DateTimeFormatter.ofPattern("HH:mm");

    private final MemoData data;

    public MemoResolvers(MemoData data) {
        this.data = data;
    }

    public ResolverRegistry registry() {
        return ResolverRegistry.of(resolvers().toArray(Resolver[]::new));
    }

    /** The actions of each capability Memo's resolvers handle, for a planner to keep to. */
    public java.util.Map<String, Set<String>> actions() {
        java.util.Map<String, Set<String>> actions = new java.util.TreeMap<>();
        for (Resolver resolver : resolvers()) {
            actions.computeIfAbsent(resolver.capability(), c -> new java.util.TreeSet<>())
                    .addAll(resolver.actions());
        }
        return actions;
    }

    /** Each of Memo's offline resolvers. */
    public List<Resolver> resolvers() {
        return List.of(
                new DatabaseTaskResolver(this),
                new DatabaseListResolver(data),
                new CalendarFindResolver(this),
                new CalendarMutateResolver(this),
                new GmailResolver(this, () -> new dev.weft.memo.data.MailOperations(data)),
                new SecondBrainResolver(data, this),
                new GeneralResolver(this),
                new MetaResolver());
    }

    static String language(ResolveContext context) {
        return context.input().path("language").asText("en");
    }

    /** The chosen option of a question the user answered: {@code {"choice": 2}} or a number in {@code text}. */
    static Optional<Integer> choice(ObjectNode answers) {
        if (answers.path("choice").canConvertToInt()) {
            return Optional.of(answers.get("choice").asInt());
        }
        String text = reply(answers).orElse("").trim();
        return text.matches("\\d{1,2}") ? Optional.of(Integer.parseInt(text)) : Optional.empty();
    }

    private static final java.util.regex.Pattern PRONOUN = java.util.regex.Pattern.compile(
            "(?iU)^(?:it|that|this|them|that one|this one|זה|את זה|אותו|אותה|אותם|אותן)$");

    /**
     * "move it to 10" when nothing was said before it: "it" names nothing to look up, so Memo says so
     * rather than that no event is called "it".
     *
     * @throws NotFoundException when {@code words} are only a pronoun
     */
    static void unnamed(String words, String language) {
        if (PRONOUN.matcher(words.strip()).matches()) {
            throw new NotFoundException(Texts.of(
                    language,
                    "I'm not sure what \"" + words.strip()
                            + "\" is here. Say its name, e.g. \"move the dentist to 10\"",
                    "לא ברור לי למה הכוונה ב\"" + words.strip()
                            + "\". אפשר לומר את השם, למשל \"תעביר את רופא השיניים ל-10\""));
        }
    }

    /** One of {@code found} for the user's words: the only one, the one they chose, or a question. */
    static <T> Object pick(
            List<T> found, ResolveContext context, String what, java.util.function.Function<T, String> label) {
        String language = language(context);
        if (found.isEmpty()) {
            throw new NotFoundException(Texts.of(language, "I couldn't find " + what, "לא מצאתי " + what));
        }
        Optional<Integer> chosen = choice(context.answers());
        if (found.size() == 1) {
            return found.get(0);
        }
        if (chosen.isPresent() && chosen.get() >= 1 && chosen.get() <= found.size()) {
            return found.get(chosen.get() - 1);
        }
        if (reply(context.answers()).isPresent()) {
            List<T> narrowed = EntityMatch.best(reply(context.answers()).get(), found, label);
            if (narrowed.size() == 1) {
                return narrowed.get(0);
            }
        }
        List<String> options = new ArrayList<>();
        for (int i = 0; i < found.size(); i++) {
            options.add((i + 1) + ". " + label.apply(found.get(i)));
        }
        return Resolution.clarify(
                Texts.of(language, "Which one did you mean?", "למה התכוונת?"), options.toArray(String[]::new));
    }

    /**
     * The words the user answered a question with: {@code reply} in the step's answers ({@code text}
     * in runs asked before Memo used its own key). Memo keeps answers apart from the tools' own
     * argument names, since the plan runtime merges a step's answers over its arguments.
     */
    static Optional<String> reply(JsonNode answers) {
        JsonNode reply = answers.has("reply") ? answers.get("reply") : answers.path("text");
        return reply.isTextual() ? Optional.of(reply.asText()) : Optional.empty();
    }

    static Optional<String> reply(ResolveContext context) {
        return reply(context.answers());
    }

    static ObjectNode args(String operation) {
        ObjectNode args = Json.object();
        args.put("operation", operation);
        return args;
    }

    static void copy(JsonNode from, ObjectNode to, String... fields) {
        for (String field : fields) {
            if (from.has(field) && !from.get(field).isNull()) {
                to.set(field, from.get(field).deepCopy());
            }
        }
    }

    /** The user's zone, as the run's input gives it, else as they keep it. */
    ZoneId zone(ResolveContext context) {
        try {
            String zone = context.input().path("zone").asText("");
            if (!zone.isEmpty()) {
                return ZoneId.of(zone);
            }
        } catch (DateTimeException e) {
            // A run started by another caller with a zone Java does not know: the user's own is next.
        }
        return context.user().flatMap(data::findUser).map(User::zone).orElse(ZoneOffset.UTC);
    }

    /**
     * The time the user's answer to a question names ("tomorrow at 10", "מחר בעשר"), read in their zone
     * from the time of their message; empty when the step has no answer or the answer names no time.
     */
    Optional<TimeExpression> timeAnswer(ResolveContext context) {
        String said = reply(context.answers()).orElse("").strip();
        if (said.isEmpty()) {
            return Optional.empty();
        }
        ZoneId zone = zone(context);
        Language language = language(context).equals("he") ? Language.HEBREW : Language.ENGLISH;
        return TIME.parse(said, now(context, zone), language);
    }

    private static final TimeParser TIME = TimeParser.create();

    MemoData data() {
        return data;
    }

    /** The time of the user's message (the run's input), else the run's clock, in {@code zone}. */
    static ZonedDateTime now(ResolveContext context, ZoneId zone) {
        try {
            String now = context.input().path("now").asText("");
            if (!now.isEmpty()) {
                return OffsetDateTime.parse(now).atZoneSameInstant(zone);
            }
        } catch (DateTimeException e) {
            // Not a time Memo wrote: the run's clock says when.
        }
        return context.time().now().atZone(zone);
    }

    static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() && !value.asText().isBlank()
                ? Optional.of(value.asText().trim())
                : Optional.empty();
    }

    static String iso(ZonedDateTime at) {
        return at.toOffsetDateTime().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    }

    static String hhmm(ZonedDateTime at) {
        return at.toLocalTime().format(HH_MM);
    }

    /**
     * The user's event the step's words ({@code summary}) name within its window ({@code timeMin},
     * {@code timeMax}): the only one, the one the user chose, or a numbered question showing each with
     * its day and time. Never an id the user typed (seed 002).
     *
     * @throws NotFoundException when none of the user's events matches
     */
    Object event(PlanStep step, ResolveContext context, boolean recurringOnly) {
        JsonNode c = step.constraints();
        String language = language(context);
        ZoneId zone = zone(context);
        String words = c.path("summary").asText("").trim();
        if (!c.has("eventId")) {
            unnamed(words, language);
        }
        Optional<Instant> from = text(c, "timeMin").map(t -> EventLookup.instant("timeMin", t, zone));
        Optional<Instant> to = text(c, "timeMax").map(t -> EventLookup.windowEnd("timeMax", t, zone));
        List<Event> events = data.events().all(context.user().orElseThrow()).stream()
                .filter(e -> !recurringOnly || e.recurs())
                .toList();
        Optional<Event> named = text(c, "eventId")
                .flatMap(id -> events.stream().filter(e -> e.id().equals(id)).findFirst());
        if (named.isPresent()) {
            // A follow-up's "it": the event the conversation was about, if the user still has it.
            Event event = named.get();
            Instant day = now(context, zone).toLocalDate().atStartOfDay(zone).toInstant();
            return EventLookup.find("", List.of(event), Optional.empty(), Optional.empty(), day).stream()
                    .findFirst()
                    .orElse(new EventLookup.Found(event, new Event.Occurrence(event, event.start(), event.end())));
        }
        Instant today = now(context, zone).toLocalDate().atStartOfDay(zone).toInstant();
        String what = words.isEmpty()
                ? Texts.of(language, "an event then", "אירוע בזמן הזה")
                : recurringOnly
                        ? Texts.of(
                                language,
                                "a repeating event matching \"" + words + "\"",
                                "אירוע חוזר שמתאים ל\"" + words + "\"")
                        : Texts.of(language, "an event matching \"" + words + "\"", "אירוע שמתאים ל\"" + words + "\"");
        return pick(EventLookup.find(words, events, from, to, today), context, what, f -> label(language, f, zone));
    }

    /** How a found event is offered in a question: its summary, and its day and time (or how it repeats). */
    private static String label(String language, EventLookup.Found found, ZoneId zone) {
        JsonNode shown = found.shown().toJson(zone);
        return found.event().summary() + " — "
                + (found.event().recurs()
                        ? CalendarReplies.repeats(language, shown, zone)
                        : CalendarReplies.eventTime(language, shown, zone));
    }

    static WeftException noResolver(PlanStep step) {
        return new WeftException(
                ErrorCode.E_NO_RESOLVER, "the calendar has no action '" + step.action() + "' (step " + step.id() + ")");
    }

    static ArrayNode array(List<String> values) {
        ArrayNode array = Json.mapper().createArrayNode();
        values.forEach(array::add);
        return array;
    }
}
