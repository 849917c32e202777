package dev.weft.mailflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.spi.RunStore;
import dev.weft.store.AppDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Mailflow's tables in the run store's database (SQLite or PostgreSQL), brought up to date when
 * opened: organizations, venues with their rooms and bookings, templates as rows, the emails each
 * venue received, and the replies it sends. Every row belongs to an organization. Thread-safe.
 */
public final class MailflowData {
    /** The name of the migrations ({@code db/mailflow/<dialect>}) and of their history table's prefix. */
    public static final String MIGRATIONS = "mailflow";

    private final AppDatabase db;

    private MailflowData(AppDatabase db) {
        this.db = db;
    }

    /**
     * Mailflow's data in {@code store}'s database, its tables created or brought up to date first.
     *
     * @throws IllegalArgumentException for a store with no database (the in-memory store)
     */
    public static MailflowData open(RunStore store) {
        AppDatabase db = AppDatabase.of(store);
        db.migrate(MIGRATIONS, MailflowData.class.getClassLoader());
        return new MailflowData(db);
    }

    public AppDatabase database() {
        return db;
    }

    // ---- venues

    /** A venue's stored row with its sealed webhook secret, which {@link Venue} does not carry. */
    record StoredVenue(Venue venue, String sealedWebhookSecret) {}

    /** Keeps {@code venue} (replacing its settings and rooms when it exists) and, when given, its bookings. */
    void saveVenue(Venue venue, String sealedWebhookSecret, Optional<List<Venue.Booking>> bookings, Instant now) {
        db.write("keep venue " + venue.id(), c -> {
            ensureOrganization(c, venue.organization(), now);
            boolean known;
            try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM mailflow_venues WHERE id = ?")) {
                s.setString(1, venue.id());
                try (ResultSet r = s.executeQuery()) {
                    known = r.next();
                }
            }
            String sql = known
                    ? "UPDATE mailflow_venues SET organization_id = ?, name = ?, address = ?, zone = ?, language = ?,"
                            + " send_mode = ?, template_id = ?, webhook_secret = ?, filters = ?, imap_host = ?,"
                            + " imap_port = ?, smtp_host = ?, smtp_port = ?, login = ?, security = ?, secret = ?,"
                            + " graph_url = ?, graph_token = ?, updated_at = ? WHERE id = ?"
                    : "INSERT INTO mailflow_venues (organization_id, name, address, zone, language, send_mode,"
                            + " template_id, webhook_secret, filters, imap_host, imap_port, smtp_host, smtp_port, login,"
                            + " security, secret, graph_url, graph_token, updated_at, id, created_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
            try (PreparedStatement s = c.prepareStatement(sql)) {
                s.setString(1, venue.organization());
                s.setString(2, venue.name());
                s.setString(3, venue.address());
                s.setString(4, venue.zone().getId());
                s.setString(5, venue.language());
                s.setString(6, venue.send().name());
                s.setString(7, venue.templateId());
                s.setString(8, sealedWebhookSecret);
                s.setString(9, Json.write(venue.filters().toJson()));
                Optional<Venue.Mailbox> m = venue.mailbox();
                setNullable(s, 10, m.map(Venue.Mailbox::imapHost));
                setNullableInt(s, 11, m.map(Venue.Mailbox::imapPort));
                setNullable(s, 12, m.map(Venue.Mailbox::smtpHost));
                setNullableInt(s, 13, m.map(Venue.Mailbox::smtpPort));
                setNullable(s, 14, m.map(Venue.Mailbox::login));
                setNullable(s, 15, m.map(b -> b.security().name()));
                setNullable(s, 16, m.map(Venue.Mailbox::sealedSecret));
                setNullable(s, 17, venue.graph().map(Venue.GraphMailbox::baseUrl));
                setNullable(s, 18, venue.graph().map(Venue.GraphMailbox::sealedToken));
                s.setLong(19, now.toEpochMilli());
                s.setString(20, venue.id());
                if (!known) {
                    s.setLong(21, now.toEpochMilli());
                }
                s.executeUpdate();
            }
            try (PreparedStatement d = c.prepareStatement("DELETE FROM mailflow_rooms WHERE venue_id = ?")) {
                d.setString(1, venue.id());
                d.executeUpdate();
            }
            try (PreparedStatement s = c.prepareStatement(
                    "INSERT INTO mailflow_rooms (venue_id, name, capacity, position) VALUES (?, ?, ?, ?)")) {
                int position = 0;
                for (Venue.Room room : venue.rooms()) {
                    s.setString(1, venue.id());
                    s.setString(2, room.name());
                    s.setInt(3, room.capacity());
                    s.setInt(4, position++);
                    s.addBatch();
                }
                s.executeBatch();
            }
            if (bookings.isPresent()) {
                try (PreparedStatement d = c.prepareStatement("DELETE FROM mailflow_bookings WHERE venue_id = ?")) {
                    d.setString(1, venue.id());
                    d.executeUpdate();
                }
                insertBookings(c, venue.id(), bookings.get());
            }
            return null;
        });
    }

    private static void insertBookings(Connection c, String venueId, List<Venue.Booking> bookings) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "INSERT INTO mailflow_bookings (venue_id, room, day) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
            for (Venue.Booking booking : bookings) {
                s.setString(1, venueId);
                s.setString(2, booking.room());
                s.setString(3, booking.day().toString());
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    /** Adds bookings to a venue's. */
    public void book(String venueId, List<Venue.Booking> bookings) {
        db.write("book rooms of " + venueId, c -> {
            insertBookings(c, venueId, bookings);
            return null;
        });
    }

    private static void ensureOrganization(Connection c, String organization, Instant now) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "INSERT INTO mailflow_organizations (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING")) {
            s.setString(1, organization);
            s.setLong(2, now.toEpochMilli());
            s.executeUpdate();
        }
    }

    /** The venue {@code id}, if there is one. */
    public Optional<Venue> findVenue(String id) {
        return findStored(id).map(StoredVenue::venue);
    }

    /**
     * The venue {@code id}.
     *
     * @throws NotFoundException when there is none, saying how to add one
     */
    public Venue venue(String id) {
        return findVenue(id)
                .orElseThrow(() -> new NotFoundException("no venue '" + id
                        + "': add it with 'weft mailflow venue add --id " + id + " --name NAME --address EMAIL'"));
    }

    Optional<StoredVenue> findStored(String id) {
        return db.read("read venue " + id, c -> {
            try (PreparedStatement s = c.prepareStatement(VENUE_SELECT + " WHERE id = ?")) {
                s.setString(1, id);
                try (ResultSet r = s.executeQuery()) {
                    return r.next() ? Optional.of(venue(c, r)) : Optional.empty();
                }
            }
        });
    }

    /** Every venue, or an organization's, by id. */
    public List<Venue> venues(Optional<String> organization) {
        return db.read("list venues", c -> {
            String sql = VENUE_SELECT + (organization.isPresent() ? " WHERE organization_id = ?" : "") + " ORDER BY id";
            try (PreparedStatement s = c.prepareStatement(sql)) {
                if (organization.isPresent()) {
                    s.setString(1, organization.get());
                }
                List<Venue> out = new ArrayList<>();
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        out.add(venue(c, r).venue());
                    }
                }
                return out;
            }
        });
    }

    private static final String VENUE_SELECT = "SELECT id, organization_id, name, address, zone, language, send_mode,"
            + " template_id, webhook_secret, filters, imap_host, imap_port, smtp_host, smtp_port, login, security, secret,"
            + " graph_url, graph_token FROM mailflow_venues";

    private static StoredVenue venue(Connection c, ResultSet r) throws SQLException {
        String id = r.getString(1);
        List<Venue.Room> rooms = new ArrayList<>();
        try (PreparedStatement s =
                c.prepareStatement("SELECT name, capacity FROM mailflow_rooms WHERE venue_id = ? ORDER BY position")) {
            s.setString(1, id);
            try (ResultSet rr = s.executeQuery()) {
                while (rr.next()) {
                    rooms.add(new Venue.Room(rr.getString(1), rr.getInt(2)));
                }
            }
        }
        Optional<Venue.Mailbox> mailbox = r.getString(11) == null
                ? Optional.empty()
                : Optional.of(new Venue.Mailbox(
                        r.getString(11),
                        r.getInt(12),
                        r.getString(13),
                        r.getInt(14),
                        r.getString(15),
                        Venue.Security.valueOf(r.getString(16)),
                        r.getString(17)));
        Optional<Venue.GraphMailbox> graph = r.getString(18) == null
                ? Optional.empty()
                : Optional.of(new Venue.GraphMailbox(r.getString(18), r.getString(19)));
        Venue venue = new Venue(
                id,
                r.getString(2),
                r.getString(3),
                r.getString(4),
                ZoneId.of(r.getString(5)),
                r.getString(6),
                Venue.SendMode.valueOf(r.getString(7)),
                r.getString(8),
                rooms,
                Filters.Rules.fromJson(Json.parse(r.getString(10), "filters of venue " + id)),
                mailbox,
                graph);
        return new StoredVenue(venue, r.getString(9));
    }

    /** Which of {@code days} each room of the venue is booked on: room name → days. */
    public Map<String, List<LocalDate>> bookings(String venueId, Collection<LocalDate> days) {
        return db.read("read bookings of " + venueId, c -> {
            Map<String, List<LocalDate>> out = new LinkedHashMap<>();
            if (days.isEmpty()) {
                return out;
            }
            StringBuilder sql =
                    new StringBuilder("SELECT room, day FROM mailflow_bookings WHERE venue_id = ? AND day IN (");
            for (int i = 0; i < days.size(); i++) {
                sql.append(i == 0 ? "?" : ", ?");
            }
            sql.append(") ORDER BY day, room");
            try (PreparedStatement s = c.prepareStatement(sql.toString())) {
                s.setString(1, venueId);
                int i = 2;
                for (LocalDate day : days) {
                    s.setString(i++, day.toString());
                }
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        out.computeIfAbsent(r.getString(1).toLowerCase(java.util.Locale.ROOT), k -> new ArrayList<>())
                                .add(LocalDate.parse(r.getString(2)));
                    }
                }
            }
            return out;
        });
    }

    /** A venue's bookings from {@code from} (inclusive) for {@code days} days: room name (lower case) → days. */
    public Map<String, List<LocalDate>> bookingsBetween(String venueId, LocalDate from, int days) {
        List<LocalDate> range = new ArrayList<>();
        for (int i = 0; i < days; i++) {
            range.add(from.plusDays(i));
        }
        return bookings(venueId, range);
    }

    // ---- templates

    /** Replaces template {@code template.id()} of {@code organization} with {@code template}'s rows, in one transaction. */
    void saveTemplate(String organization, Template template, Instant now) {
        db.write("keep template " + template.id(), c -> {
            ensureOrganization(c, organization, now);
            int version = 0;
            try (PreparedStatement s =
                    c.prepareStatement("SELECT version, organization_id FROM workflow_templates WHERE id = ?")) {
                s.setString(1, template.id());
                try (ResultSet r = s.executeQuery()) {
                    if (r.next()) {
                        if (!r.getString(2).equals(organization)) {
                            throw new dev.weft.core.WeftException(
                                    dev.weft.core.ErrorCode.E_BAD_INPUT,
                                    "template id '" + template.id() + "' is another organization's");
                        }
                        version = r.getInt(1);
                    }
                }
            }
            for (String table :
                    List.of("workflow_nodes", "workflow_tools", "workflow_connections", "workflow_variables")) {
                try (PreparedStatement d = c.prepareStatement("DELETE FROM " + table + " WHERE template_id = ?")) {
                    d.setString(1, template.id());
                    d.executeUpdate();
                }
            }
            String upsert = version == 0
                    ? "INSERT INTO workflow_templates (organization_id, name, version, updated_at, id) VALUES (?, ?, ?, ?, ?)"
                    : "UPDATE workflow_templates SET organization_id = ?, name = ?, version = ?, updated_at = ? WHERE id = ?";
            try (PreparedStatement s = c.prepareStatement(upsert)) {
                s.setString(1, organization);
                s.setString(2, template.name());
                s.setInt(3, version + 1);
                s.setLong(4, now.toEpochMilli());
                s.setString(5, template.id());
                s.executeUpdate();
            }
            insertItems(
                    c,
                    "INSERT INTO workflow_nodes (template_id, id, position, node_type, name, config) VALUES (?, ?, ?, ?, ?, ?)",
                    template.id(),
                    template.nodes());
            insertItems(
                    c,
                    "INSERT INTO workflow_tools (template_id, id, position, tool_type, tool_name, config) VALUES (?, ?, ?, ?, ?, ?)",
                    template.id(),
                    template.tools());
            try (PreparedStatement s = c.prepareStatement("INSERT INTO workflow_connections (template_id, position,"
                    + " source_node_id, target_node_id, source_handle, target_handle) VALUES (?, ?, ?, ?, ?, ?)")) {
                int position = 0;
                for (Template.Connection link : template.connections()) {
                    s.setString(1, template.id());
                    s.setInt(2, position++);
                    s.setString(3, link.source());
                    s.setString(4, link.target());
                    s.setString(5, link.sourceHandle());
                    s.setString(6, link.targetHandle());
                    s.addBatch();
                }
                s.executeBatch();
            }
            try (PreparedStatement s =
                    c.prepareStatement("INSERT INTO workflow_variables (template_id, name, value) VALUES (?, ?, ?)")) {
                for (Map.Entry<String, JsonNode> variable : template.variables().entrySet()) {
                    s.setString(1, template.id());
                    s.setString(2, variable.getKey());
                    s.setString(3, Json.write(variable.getValue()));
                    s.addBatch();
                }
                s.executeBatch();
            }
            return null;
        });
    }

    private static void insertItems(Connection c, String sql, String templateId, List<Template.Item> items)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            int position = 0;
            for (Template.Item item : items) {
                s.setString(1, templateId);
                s.setString(2, item.id());
                s.setInt(3, position++);
                s.setString(4, item.type());
                s.setString(5, item.name());
                s.setString(6, Json.write(item.config()));
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    /** A stored template and its version (how often it was saved). */
    public record StoredTemplate(String organization, int version, Template template) {}

    /** The version of template {@code id} (how often it was saved), if there is one: one query, for caches. */
    public Optional<Integer> templateVersion(String id) {
        return db.read("read the version of template " + id, c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT version FROM workflow_templates WHERE id = ?")) {
                s.setString(1, id);
                try (ResultSet r = s.executeQuery()) {
                    return r.next() ? Optional.of(r.getInt(1)) : Optional.empty();
                }
            }
        });
    }

    /** The template {@code id}, read back from its rows. */
    public Optional<StoredTemplate> template(String id) {
        return db.read("read template " + id, c -> {
            String organization;
            String name;
            int version;
            try (PreparedStatement s =
                    c.prepareStatement("SELECT organization_id, name, version FROM workflow_templates WHERE id = ?")) {
                s.setString(1, id);
                try (ResultSet r = s.executeQuery()) {
                    if (!r.next()) {
                        return Optional.empty();
                    }
                    organization = r.getString(1);
                    name = r.getString(2);
                    version = r.getInt(3);
                }
            }
            List<Template.Item> nodes = readItems(
                    c,
                    "SELECT id, node_type, name, config FROM workflow_nodes"
                            + " WHERE template_id = ? ORDER BY position",
                    id);
            List<Template.Item> tools = readItems(
                    c,
                    "SELECT id, tool_type, tool_name, config FROM workflow_tools"
                            + " WHERE template_id = ? ORDER BY position",
                    id);
            List<Template.Connection> links = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement("SELECT source_node_id, target_node_id, source_handle,"
                    + " target_handle FROM workflow_connections WHERE template_id = ? ORDER BY position")) {
                s.setString(1, id);
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        links.add(new Template.Connection(
                                r.getString(1), r.getString(2), r.getString(3), r.getString(4)));
                    }
                }
            }
            Map<String, JsonNode> variables = new LinkedHashMap<>();
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT name, value FROM workflow_variables WHERE template_id = ? ORDER BY name")) {
                s.setString(1, id);
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        variables.put(r.getString(1), Json.parse(r.getString(2), "variable " + r.getString(1)));
                    }
                }
            }
            return Optional.of(
                    new StoredTemplate(organization, version, new Template(id, name, variables, nodes, tools, links)));
        });
    }

    private static List<Template.Item> readItems(Connection c, String sql, String id) throws SQLException {
        List<Template.Item> items = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, id);
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    items.add(new Template.Item(r.getString(1), r.getString(2), r.getString(3), (ObjectNode)
                            Json.parse(r.getString(4), "config of " + r.getString(1))));
                }
            }
        }
        return items;
    }

    // ---- emails

    /** An email a venue received: the run it started, or why it was filtered. */
    public record Received(
            String venueId,
            String key,
            String messageId,
            Optional<String> runId,
            Optional<String> filtered,
            String channel,
            Instant receivedAt) {}

    /**
     * Records that {@code venueId} received the email {@code key}, unless it already had: the row is
     * the one claim that lets an email start a run, whichever delivery (webhook, IMAP, a retry) comes
     * first, in this process or another.
     *
     * @return empty when this call claimed it; the earlier record when the venue had received it already
     */
    public Optional<Received> claim(
            String venueId,
            String key,
            String messageId,
            Optional<String> runId,
            Optional<String> filtered,
            String channel,
            String sender,
            String subject,
            Instant now) {
        return db.write("record email " + key + " of " + venueId, c -> {
            int inserted;
            try (PreparedStatement s =
                    c.prepareStatement("INSERT INTO mailflow_emails (venue_id, email_key, message_id,"
                            + " run_id, filtered, channel, sender, subject, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                            + " ON CONFLICT (venue_id, email_key) DO NOTHING")) {
                s.setString(1, venueId);
                s.setString(2, key);
                s.setString(3, messageId);
                setNullable(s, 4, runId);
                setNullable(s, 5, filtered);
                s.setString(6, channel);
                s.setString(7, sender);
                s.setString(8, subject.length() > 500 ? subject.substring(0, 500) : subject);
                s.setLong(9, now.toEpochMilli());
                inserted = s.executeUpdate();
            }
            if (inserted == 1) {
                return Optional.<Received>empty();
            }
            return received(c, venueId, key);
        });
    }

    private static Optional<Received> received(Connection c, String venueId, String key) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT message_id, run_id, filtered, channel, received_at"
                + " FROM mailflow_emails WHERE venue_id = ? AND email_key = ?")) {
            s.setString(1, venueId);
            s.setString(2, key);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Received(
                        venueId,
                        key,
                        r.getString(1),
                        Optional.ofNullable(r.getString(2)),
                        Optional.ofNullable(r.getString(3)),
                        r.getString(4),
                        Instant.ofEpochMilli(r.getLong(5))));
            }
        }
    }

    /** The emails a venue received, newest first, at most {@code limit}. */
    public List<Received> emails(String venueId, int limit) {
        return db.read("list emails of " + venueId, c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT email_key, message_id, run_id, filtered, channel,"
                            + " received_at FROM mailflow_emails WHERE venue_id = ? ORDER BY received_at DESC, email_key LIMIT ?")) {
                s.setString(1, venueId);
                s.setInt(2, limit);
                List<Received> out = new ArrayList<>();
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        out.add(new Received(
                                venueId,
                                r.getString(1),
                                r.getString(2),
                                Optional.ofNullable(r.getString(3)),
                                Optional.ofNullable(r.getString(4)),
                                r.getString(5),
                                Instant.ofEpochMilli(r.getLong(6))));
                    }
                }
                return out;
            }
        });
    }

    /** The venue whose email started {@code runId}, if one did. */
    public Optional<String> venueOfRun(String runId) {
        return db.read("find the venue of run " + runId, c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT venue_id FROM mailflow_emails WHERE run_id = ?")) {
                s.setString(1, runId);
                try (ResultSet r = s.executeQuery()) {
                    return r.next() ? Optional.of(r.getString(1)) : Optional.empty();
                }
            }
        });
    }

    /**
     * The runs of a venue's thread that {@code ids} (an email's In-Reply-To and References) point at:
     * runs started by those emails, and runs that sent those replies, latest last.
     */
    public List<String> threadRuns(String venueId, Collection<String> ids) {
        if (ids.isEmpty()) {
            return List.of();
        }
        return db.read("find the thread of an email of " + venueId, c -> {
            List<String> runs = new ArrayList<>();
            String marks = String.join(", ", java.util.Collections.nCopies(ids.size(), "?"));
            for (String sql : List.of(
                    "SELECT run_id FROM mailflow_emails WHERE venue_id = ? AND run_id IS NOT NULL AND message_id IN ("
                            + marks + ") ORDER BY received_at",
                    "SELECT run_id FROM mailflow_outbox WHERE venue_id = ? AND message_id IN (" + marks
                            + ") ORDER BY created_at")) {
                try (PreparedStatement s = c.prepareStatement(sql)) {
                    s.setString(1, venueId);
                    int i = 2;
                    for (String id : ids) {
                        s.setString(i++, id);
                    }
                    try (ResultSet r = s.executeQuery()) {
                        while (r.next()) {
                            if (!runs.contains(r.getString(1))) {
                                runs.add(r.getString(1));
                            }
                        }
                    }
                }
            }
            return runs;
        });
    }

    // ---- outbox

    /** A reply recorded before it is sent: its Message-ID, the MIME text to send, and whether it went. */
    public record Outgoing(
            String messageId,
            String venueId,
            String runId,
            String inReplyTo,
            String recipient,
            String subject,
            String mime,
            boolean sent) {}

    /** The reply recorded, and whether it was recorded before this call (by an attempt that may have sent it). */
    public record Recorded(Outgoing outgoing, boolean earlier) {}

    /**
     * Records the intent to send {@code outgoing} unless it is recorded already (a retried or recovered
     * step): the row that was there first is returned, and that is what is sent.
     */
    public Recorded recordIntent(Outgoing outgoing, Instant now) {
        return db.write("record the reply " + outgoing.messageId(), c -> {
            int inserted;
            try (PreparedStatement s = c.prepareStatement("INSERT INTO mailflow_outbox (message_id, venue_id, run_id,"
                    + " in_reply_to, recipient, subject, mime, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'PENDING', ?)"
                    + " ON CONFLICT (message_id) DO NOTHING")) {
                s.setString(1, outgoing.messageId());
                s.setString(2, outgoing.venueId());
                s.setString(3, outgoing.runId());
                s.setString(4, outgoing.inReplyTo());
                s.setString(5, outgoing.recipient());
                s.setString(6, outgoing.subject());
                s.setString(7, outgoing.mime());
                s.setLong(8, now.toEpochMilli());
                inserted = s.executeUpdate();
            }
            return new Recorded(outgoing(c, outgoing.messageId()).orElseThrow(), inserted == 0);
        });
    }

    /** The reply {@code messageId}, if it was recorded. */
    public Optional<Outgoing> outgoing(String messageId) {
        return db.read("read the reply " + messageId, c -> outgoing(c, messageId));
    }

    private static Optional<Outgoing> outgoing(Connection c, String messageId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT message_id, venue_id, run_id, in_reply_to, recipient,"
                + " subject, mime, status FROM mailflow_outbox WHERE message_id = ?")) {
            s.setString(1, messageId);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    return Optional.empty();
                }
                return Optional.of(new Outgoing(
                        r.getString(1),
                        r.getString(2),
                        r.getString(3),
                        r.getString(4),
                        r.getString(5),
                        r.getString(6),
                        r.getString(7),
                        r.getString(8).equals("SENT")));
            }
        }
    }

    /** Marks the reply {@code messageId} as sent. */
    public void markSent(String messageId, Instant now) {
        db.write("mark the reply " + messageId + " sent", c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "UPDATE mailflow_outbox SET status = 'SENT', sent_at = ? WHERE message_id = ?")) {
                s.setLong(1, now.toEpochMilli());
                s.setString(2, messageId);
                return s.executeUpdate();
            }
        });
    }

    /**
     * Whether an attempt to send reply {@code messageId} may have sent it: it was recorded as about to
     * go ({@code PENDING}), and neither marked sent nor found refused before the server was given it.
     */
    public boolean mayHaveGone(String messageId) {
        return db.read("read the reply " + messageId, c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT status FROM mailflow_outbox WHERE message_id = ?")) {
                s.setString(1, messageId);
                try (ResultSet r = s.executeQuery()) {
                    return r.next() && r.getString(1).equals("PENDING");
                }
            }
        });
    }

    /**
     * Marks reply {@code messageId} as not sent ({@code UNSENT}): its server refused it, or could not be
     * reached, before it was given the mail. The next attempt sends it without asking anyone.
     */
    public void markUnsent(String messageId) {
        outboxStatus(messageId, "UNSENT", "PENDING");
    }

    /** Marks reply {@code messageId} as about to go again ({@code PENDING}) after an attempt that sent nothing. */
    public void markAttempt(String messageId) {
        outboxStatus(messageId, "PENDING", "UNSENT");
    }

    private void outboxStatus(String messageId, String to, String from) {
        db.write("mark the reply " + messageId + " " + to, c -> {
            try (PreparedStatement s =
                    c.prepareStatement("UPDATE mailflow_outbox SET status = ? WHERE message_id = ? AND status = ?")) {
                s.setString(1, to);
                s.setString(2, messageId);
                s.setString(3, from);
                return s.executeUpdate();
            }
        });
    }

    /** Whether {@code messageId} is one of the venue's own replies. */
    public boolean isOwnReply(String venueId, String messageId) {
        if (messageId.isBlank()) {
            return false;
        }
        return db.read("look for the reply " + messageId, c -> {
            try (PreparedStatement s =
                    c.prepareStatement("SELECT 1 FROM mailflow_outbox WHERE venue_id = ? AND message_id = ?")) {
                s.setString(1, venueId);
                s.setString(2, messageId);
                try (ResultSet r = s.executeQuery()) {
                    return r.next();
                }
            }
        });
    }

    private static void setNullable(PreparedStatement s, int index, Optional<String> value) throws SQLException {
        if (value.isPresent()) {
            s.setString(index, value.get());
        } else {
            s.setNull(index, Types.VARCHAR);
        }
    }

    private static void setNullableInt(PreparedStatement s, int index, Optional<Integer> value) throws SQLException {
        if (value.isPresent()) {
            s.setInt(index, value.get());
        } else {
            s.setNull(index, Types.INTEGER);
        }
    }
}
