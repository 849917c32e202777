package dev.weft.mailflow;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A venue: the organization it belongs to (its tenant), its mailbox address, time zone and language,
 * its rooms, how its replies are sent, the template its agent runs, and, when connected, its IMAP and
 * SMTP servers and its Microsoft Graph mailbox. Secrets stay sealed. Immutable.
 *
 * @param language the language of its replies when the sender's cannot be told ({@code en} or {@code he})
 */
public record Venue(
        String id,
        String organization,
        String name,
        String address,
        ZoneId zone,
        String language,
        SendMode send,
        String templateId,
        List<Room> rooms,
        Filters.Rules filters,
        Optional<Mailbox> mailbox,
        Optional<GraphMailbox> graph) {

    public Venue {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(organization, "organization");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(send, "send");
        Objects.requireNonNull(templateId, "templateId");
        rooms = List.copyOf(rooms);
        Objects.requireNonNull(filters, "filters");
        Objects.requireNonNull(mailbox, "mailbox");
        Objects.requireNonNull(graph, "graph");
    }

    /** How a venue's replies leave. */
    public enum SendMode {
        /** Sent as soon as they are written. */
        AUTO,
        /** Written, then sent when a person approves the run. */
        APPROVAL;

        /** @throws WeftException {@code E_BAD_INPUT} for anything but auto or approval */
        public static SendMode of(String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "--send '" + text + "' is not one of auto, approval");
            }
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A room and how many guests it holds. */
    public record Room(String name, int capacity) {
        public Room {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "a room needs a name");
            }
            if (capacity < 1) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT, "room '" + name + "': capacity must be at least 1, was " + capacity);
            }
        }
    }

    /** A room taken for a whole day. */
    public record Booking(String room, LocalDate day) {
        public Booking {
            Objects.requireNonNull(room, "room");
            Objects.requireNonNull(day, "day");
        }
    }

    /** How a connection to a mail server is protected. */
    public enum Security {
        TLS,
        STARTTLS,
        NONE;

        /** @throws WeftException {@code E_BAD_INPUT} for anything but tls, starttls or none */
        public static Security of(String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT, "--security '" + text + "' is not one of tls, starttls, none");
            }
        }
    }

    /** The venue's IMAP and SMTP servers and its login; the password sealed by {@link dev.weft.store.Secrets}. */
    public record Mailbox(
            String imapHost,
            int imapPort,
            String smtpHost,
            int smtpPort,
            String login,
            Security security,
            String sealedSecret) {
        public Mailbox {
            Objects.requireNonNull(imapHost, "imapHost");
            Objects.requireNonNull(smtpHost, "smtpHost");
            Objects.requireNonNull(login, "login");
            Objects.requireNonNull(security, "security");
            Objects.requireNonNull(sealedSecret, "sealedSecret");
        }

        @Override
        public String toString() {
            return login + " (IMAP " + imapHost + ":" + imapPort + ", SMTP " + smtpHost + ":" + smtpPort + ", "
                    + security.name().toLowerCase(Locale.ROOT) + ")";
        }
    }

    /** The venue's mailbox on Microsoft Graph: where Graph is, and the access token (sealed). */
    public record GraphMailbox(String baseUrl, String sealedToken) {
        public GraphMailbox {
            Objects.requireNonNull(baseUrl, "baseUrl");
            Objects.requireNonNull(sealedToken, "sealedToken");
        }
    }

    /** The room named {@code name}, ignoring case. */
    public Optional<Room> room(String name) {
        return rooms.stream().filter(r -> r.name().equalsIgnoreCase(name)).findFirst();
    }

    /** The venue as {@code venue list --json} and the API show it: no secret. */
    public ObjectNode toJson() {
        ObjectNode node = Json.object();
        node.put("id", id);
        node.put("organization", organization);
        node.put("name", name);
        node.put("address", address);
        node.put("tz", zone.getId());
        node.put("language", language);
        node.put("send", send.label());
        node.put("template", templateId);
        ArrayNode roomArray = node.putArray("rooms");
        rooms.forEach(r -> roomArray.addObject().put("name", r.name()).put("capacity", r.capacity()));
        node.set("filters", filters.toJson());
        if (mailbox.isPresent()) {
            Mailbox m = mailbox.get();
            node.putObject("mailbox")
                    .put("imap", m.imapHost() + ":" + m.imapPort())
                    .put("smtp", m.smtpHost() + ":" + m.smtpPort())
                    .put("login", m.login())
                    .put("security", m.security().name().toLowerCase(Locale.ROOT));
        } else {
            node.putNull("mailbox");
        }
        node.put("graph", graph.map(GraphMailbox::baseUrl).orElse(null));
        return node;
    }

    /** What a run keeps of its venue (no secret, no bookings: those are read when the run asks). */
    public ObjectNode runView() {
        ObjectNode node = Json.object();
        node.put("id", id);
        node.put("organization", organization);
        node.put("name", name);
        node.put("address", address);
        node.put("tz", zone.getId());
        node.put("language", language);
        node.put("send", send.label());
        ArrayNode roomArray = node.putArray("rooms");
        rooms.forEach(r -> roomArray.addObject().put("name", r.name()).put("capacity", r.capacity()));
        return node;
    }
}
