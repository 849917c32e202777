package dev.weft.memo.internal;

import static dev.weft.memo.internal.MemoResolvers.args;
import static dev.weft.memo.internal.MemoResolvers.copy;
import static dev.weft.memo.internal.MemoResolvers.iso;
import static dev.weft.memo.internal.MemoResolvers.noResolver;
import static dev.weft.memo.internal.MemoResolvers.now;
import static dev.weft.memo.internal.MemoResolvers.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.memo.MemoTools;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.Set;

/** Seed 002's CalendarFindResolver: listing, finding and checking the user's calendar. Thread-safe. */
final class CalendarFindResolver implements Resolver {
    private final MemoResolvers resolvers;

    CalendarFindResolver(MemoResolvers resolvers) {
        this.resolvers = resolvers;
    }

    @Override
    public String name() {
        return "CalendarFindResolver";
    }

    @Override
    public String capability() {
        return "calendar";
    }

    @Override
    public Set<String> actions() {
        return Set.of("list_events", "find_event", "check_conflicts", "get_recurring");
    }

    @Override
    public Optional<String> tool(PlanStep step) {
        return Optional.of(MemoTools.CALENDAR);
    }

    @Override
    public Resolution resolve(PlanStep step, ResolveContext context) {
        JsonNode c = step.constraints();
        switch (step.action()) {
            case "list_events" -> {
                ObjectNode args = args("getEvents");
                copy(c, args, "timeMin", "timeMax", "excludeSummaries", "excludeDays");
                if (!args.has("timeMin") && !args.has("timeMax")) {
                    // Seed 002's default window: today and the six days after it, in the user's zone.
                    ZoneId zone = resolvers.zone(context);
                    ZonedDateTime today = now(context, zone).toLocalDate().atStartOfDay(zone);
                    args.put("timeMin", iso(today));
                    args.put("timeMax", iso(today.plusDays(7)));
                }
                return Resolution.execute(MemoTools.CALENDAR, args);
            }
            case "check_conflicts" -> {
                ObjectNode args = args("checkConflicts");
                text(c, "timeMin").or(() -> text(c, "start")).ifPresent(t -> args.put("timeMin", t));
                text(c, "timeMax").or(() -> text(c, "end")).ifPresent(t -> args.put("timeMax", t));
                if (!args.has("timeMin") || !args.has("timeMax")) {
                    throw EventLookup.invalid("check_conflicts needs 'timeMin' and 'timeMax'");
                }
                return Resolution.execute(MemoTools.CALENDAR, args);
            }
            case "find_event", "get_recurring" -> {
                boolean series = step.action().equals("get_recurring");
                Object picked = resolvers.event(step, context, series);
                if (picked instanceof Resolution question) {
                    return question;
                }
                ObjectNode args = args(series ? "getRecurringInstances" : "get");
                args.put("eventId", ((EventLookup.Found) picked).event().id());
                return Resolution.execute(MemoTools.CALENDAR, args);
            }
            default -> throw noResolver(step);
        }
    }
}
