package dev.weft.concierge.shop;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.store.AppDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The shop's tables in the run store's database (SQLite or PostgreSQL), brought up to date when opened:
 * the catalog, customers, orders, returns, exchanges, refunds and tickets. Reads return what is stored;
 * each change is one transaction that checks again, inside it, the state it needs (an order still
 * pending), so that two changes cannot both win. Who may ask for a change is the tools' business
 * ({@link ShopTools}). Thread-safe.
 */
public final class Shop {
    /** The name of the concierge's migrations ({@code db/concierge/<dialect>}) and of their history table. */
    public static final String MIGRATIONS = "concierge";

    /** A return of some items of a delivered order, refunded to the order's payment. */
    public record ReturnRequest(
            String id,
            String orderId,
            String customerId,
            List<Integer> items,
            long refundCents,
            String refundTo,
            Optional<String> reason,
            String status,
            Instant createdAt) {
        public ReturnRequest {
            items = List.copyOf(items);
        }
    }

    /** An exchange of a delivered item for another variant of the same product. */
    public record Exchange(
            String id,
            String orderId,
            String customerId,
            int itemPosition,
            String fromVariant,
            String toVariant,
            long priceDifferenceCents,
            String status,
            Instant createdAt) {}

    /** Money going back to a customer, always to the payment the order was paid with. */
    public record Refund(
            String id,
            String orderId,
            String customerId,
            long amountCents,
            String method,
            String kind,
            Instant createdAt) {}

    /** A ticket for the support team, or a request to talk to a person ({@code kind} {@code human}). */
    public record Ticket(
            String id,
            String user,
            String session,
            Optional<String> customerId,
            Optional<String> orderId,
            String kind,
            String subject,
            String body,
            String status,
            Instant createdAt) {}

    private final AppDatabase db;

    private Shop(AppDatabase db) {
        this.db = db;
    }

    /**
     * The shop in {@code store}'s database, its tables created or brought up to date first.
     *
     * @throws IllegalArgumentException for a store with no database (the in-memory store)
     */
    public static Shop open(RunStore store) {
        AppDatabase db = AppDatabase.of(store);
        db.migrate(MIGRATIONS, Shop.class.getClassLoader());
        return new Shop(db);
    }

    /** The database the shop's tables are in (the concierge keeps its sessions there too). */
    public AppDatabase database() {
        return db;
    }

    // ---------------------------------------------------------------- the catalog

    /** The owner of the shop every user who owns none of their own sees (what {@code seed} loads by default). */
    public static final String DEFAULT_OWNER = "";

    /** Every product of the default shop, with its variants, in catalog order. */
    public List<Product> products() {
        return products(DEFAULT_OWNER);
    }

    /** Every product of {@code owner}'s shop, with its variants, in catalog order. */
    public List<Product> products(String owner) {
        return db.read("read the catalog of '" + owner + "'", c -> products(c, Optional.of(owner)));
    }

    /** Every product of every shop (to tell a product's name when reading a message; never to act). */
    public List<Product> allProducts() {
        return db.read("read every catalog", c -> products(c, Optional.empty()));
    }

    public Optional<Product> product(String id) {
        return products().stream().filter(p -> p.id().equals(id)).findFirst();
    }

    /** Product {@code id} of {@code owner}'s shop. */
    public Optional<Product> product(String owner, String id) {
        return products(owner).stream().filter(p -> p.id().equals(id)).findFirst();
    }

    /**
     * Whose shop {@code user} talks for: their own when they own one (a shop loaded for them), else the
     * default shop. A shop's key sees nothing of another's.
     */
    public String ownerOf(String user) {
        return db.read("find the shop of " + user, c -> {
            try (PreparedStatement select = c.prepareStatement("SELECT 1 FROM concierge_customers WHERE org = ?"
                    + " UNION SELECT 1 FROM concierge_products WHERE org = ?")) {
                select.setString(1, user);
                select.setString(2, user);
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? user : DEFAULT_OWNER;
                }
            }
        });
    }

    /** The product that has variant {@code variantId}. */
    public Optional<Product> productOfVariant(String variantId) {
        return products().stream().filter(p -> p.variant(variantId).isPresent()).findFirst();
    }

    private static List<Product> products(Connection c, Optional<String> owner) throws SQLException {
        Map<String, List<Variant>> variants = new LinkedHashMap<>();
        try (PreparedStatement select = c.prepareStatement("SELECT id, product_id, options, price_cents, stock FROM"
                + " concierge_variants"
                + (owner.isPresent() ? " WHERE product_id IN (SELECT id FROM concierge_products WHERE org = ?)" : "")
                + " ORDER BY product_id, position")) {
            if (owner.isPresent()) {
                select.setString(1, owner.get());
            }
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    variants.computeIfAbsent(row.getString(2), k -> new ArrayList<>())
                            .add(new Variant(
                                    row.getString(1),
                                    row.getString(2),
                                    options(row.getString(3)),
                                    row.getLong(4),
                                    row.getInt(5)));
                }
            }
        }
        List<Product> products = new ArrayList<>();
        try (PreparedStatement select =
                c.prepareStatement("SELECT id, name, name_he, category, keywords, description FROM concierge_products"
                        + (owner.isPresent() ? " WHERE org = ?" : "") + " ORDER BY id")) {
            if (owner.isPresent()) {
                select.setString(1, owner.get());
            }
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    List<String> keywords = new ArrayList<>();
                    Json.parse(row.getString(5), "keywords").forEach(k -> keywords.add(k.asText()));
                    products.add(new Product(
                            row.getString(1),
                            row.getString(2),
                            row.getString(3),
                            row.getString(4),
                            keywords,
                            row.getString(6),
                            variants.getOrDefault(row.getString(1), List.of())));
                }
            }
        }
        return products;
    }

    private static Map<String, String> options(String json) {
        Map<String, String> options = new LinkedHashMap<>();
        Json.parse(json, "variant options")
                .properties()
                .forEach(e -> options.put(e.getKey(), e.getValue().asText()));
        return options;
    }

    // ---------------------------------------------------------------- customers

    /** The default shop's customers. */
    public List<Customer> customers() {
        return customers(DEFAULT_OWNER);
    }

    /** The customers of {@code owner}'s shop. */
    public List<Customer> customers(String owner) {
        return db.read("read the customers", c -> customers(c, " WHERE org = ?", owner));
    }

    public Optional<Customer> customer(String id) {
        return db.read("read customer " + id, c -> customers(c, " WHERE id = ?", id)).stream()
                .findFirst();
    }

    /** The default shop's customer whose email is {@code email}, ignoring case and surrounding spaces. */
    public Optional<Customer> customerByEmail(String email) {
        return customerByEmail(DEFAULT_OWNER, email);
    }

    /** The customer of {@code owner}'s shop whose email is {@code email}, ignoring case and surrounding spaces. */
    public Optional<Customer> customerByEmail(String owner, String email) {
        String wanted = email.strip().toLowerCase(Locale.ROOT);
        return db
                .read("find a customer by email", c -> {
                    try (PreparedStatement select = c.prepareStatement(
                            "SELECT id FROM concierge_customers" + " WHERE org = ? AND lower(email) = ?")) {
                        select.setString(1, owner);
                        select.setString(2, wanted);
                        try (ResultSet row = select.executeQuery()) {
                            return row.next() ? customers(c, " WHERE id = ?", row.getString(1)) : List.<Customer>of();
                        }
                    }
                })
                .stream()
                .findFirst();
    }

    /** The default shop's customers whose postcode is {@code postcode} (spaces and dashes ignored). */
    public List<Customer> customersByPostcode(String postcode) {
        return customersByPostcode(DEFAULT_OWNER, postcode);
    }

    /** The customers of {@code owner}'s shop whose postcode is {@code postcode} (spaces and dashes ignored). */
    public List<Customer> customersByPostcode(String owner, String postcode) {
        String wanted = postcode.replaceAll("[\\s-]", "");
        return customers(owner).stream()
                .filter(c -> c.postcode().replaceAll("[\\s-]", "").equals(wanted))
                .toList();
    }

    private static List<Customer> customers(Connection c, String where, String value) throws SQLException {
        try (PreparedStatement select = c.prepareStatement(
                "SELECT id, name, email, postcode, address, payment, language FROM concierge_customers" + where
                        + " ORDER BY id")) {
            if (value != null) {
                select.setString(1, value);
            }
            List<Customer> customers = new ArrayList<>();
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    customers.add(new Customer(
                            row.getString(1),
                            row.getString(2),
                            row.getString(3),
                            row.getString(4),
                            row.getString(5),
                            Payment.fromJson(Json.parse(row.getString(6), "payment")),
                            row.getString(7)));
                }
            }
            return customers;
        }
    }

    // ---------------------------------------------------------------- orders

    /** The orders of {@code customerId}, oldest first. */
    public List<Order> orders(String customerId) {
        return db.read("read the orders of " + customerId, c -> orders(c, " WHERE customer_id = ?", customerId));
    }

    public Optional<Order> order(String id) {
        return db.read("read order " + id, c -> orders(c, " WHERE id = ?", id)).stream()
                .findFirst();
    }

    /** Every order, by id. */
    public List<Order> orders() {
        return db.read("read the orders", c -> orders(c, "", null));
    }

    private static List<Order> orders(Connection c, String where, String value) throws SQLException {
        Map<String, Order> orders = new LinkedHashMap<>();
        try (PreparedStatement select = c.prepareStatement(
                "SELECT id, customer_id, status, address, payment, cancel_reason, created_at, updated_at"
                        + " FROM concierge_orders" + where + " ORDER BY id")) {
            if (value != null) {
                select.setString(1, value);
            }
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    orders.put(
                            row.getString(1),
                            new Order(
                                    row.getString(1),
                                    row.getString(2),
                                    OrderStatus.of(row.getString(3)),
                                    row.getString(4),
                                    Payment.fromJson(Json.parse(row.getString(5), "payment")),
                                    Optional.ofNullable(row.getString(6)),
                                    Instant.ofEpochMilli(row.getLong(7)),
                                    Instant.ofEpochMilli(row.getLong(8)),
                                    List.of()));
                }
            }
        }
        if (orders.isEmpty()) {
            return List.of();
        }
        Map<String, List<OrderItem>> items = new LinkedHashMap<>();
        String itemWhere = where.isEmpty() ? "" : " WHERE order_id IN (SELECT id FROM concierge_orders" + where + ")";
        try (PreparedStatement select =
                c.prepareStatement("SELECT order_id, position, variant_id, price_cents FROM concierge_order_items"
                        + itemWhere + " ORDER BY order_id, position")) {
            if (value != null) {
                select.setString(1, value);
            }
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    items.computeIfAbsent(row.getString(1), k -> new ArrayList<>())
                            .add(new OrderItem(row.getInt(2), row.getString(3), row.getLong(4)));
                }
            }
        }
        List<Order> out = new ArrayList<>(orders.size());
        for (Order o : orders.values()) {
            out.add(new Order(
                    o.id(),
                    o.customerId(),
                    o.status(),
                    o.address(),
                    o.payment(),
                    o.cancelReason(),
                    o.createdAt(),
                    o.updatedAt(),
                    items.getOrDefault(o.id(), List.of())));
        }
        return out;
    }

    public List<ReturnRequest> returns() {
        return list(
                "read the returns",
                "SELECT id, order_id, customer_id, items, refund_cents, refund_to, reason, status, created_at"
                        + " FROM concierge_returns ORDER BY id",
                row -> new ReturnRequest(
                        row.getString(1),
                        row.getString(2),
                        row.getString(3),
                        positions(row.getString(4)),
                        row.getLong(5),
                        row.getString(6),
                        Optional.ofNullable(row.getString(7)),
                        row.getString(8),
                        Instant.ofEpochMilli(row.getLong(9))));
    }

    public List<Exchange> exchanges() {
        return list(
                "read the exchanges",
                "SELECT id, order_id, customer_id, item_position, from_variant, to_variant,"
                        + " price_difference_cents, status, created_at FROM concierge_exchanges ORDER BY id",
                row -> new Exchange(
                        row.getString(1),
                        row.getString(2),
                        row.getString(3),
                        row.getInt(4),
                        row.getString(5),
                        row.getString(6),
                        row.getLong(7),
                        row.getString(8),
                        Instant.ofEpochMilli(row.getLong(9))));
    }

    public List<Refund> refunds() {
        return list(
                "read the refunds",
                "SELECT id, order_id, customer_id, amount_cents, method, kind, created_at"
                        + " FROM concierge_refunds ORDER BY id",
                row -> new Refund(
                        row.getString(1),
                        row.getString(2),
                        row.getString(3),
                        row.getLong(4),
                        row.getString(5),
                        row.getString(6),
                        Instant.ofEpochMilli(row.getLong(7))));
    }

    public List<Ticket> tickets() {
        return list(
                "read the tickets",
                "SELECT id, user_id, session_id, customer_id, order_id, kind, subject, body, status, created_at"
                        + " FROM concierge_tickets ORDER BY id",
                row -> new Ticket(
                        row.getString(1),
                        row.getString(2),
                        row.getString(3),
                        Optional.ofNullable(row.getString(4)),
                        Optional.ofNullable(row.getString(5)),
                        row.getString(6),
                        row.getString(7),
                        row.getString(8),
                        row.getString(9),
                        Instant.ofEpochMilli(row.getLong(10))));
    }

    private static List<Integer> positions(String json) {
        List<Integer> positions = new ArrayList<>();
        Json.parse(json, "returned items").forEach(p -> positions.add(p.asInt()));
        return positions;
    }

    /** How a row of a result is read. */
    @FunctionalInterface
    private interface Row<T> {
        T read(ResultSet row) throws SQLException;
    }

    /** Every row {@code sql} selects, read by {@code row}. */
    private <T> List<T> list(String what, String sql, Row<T> row) {
        return db.read(what, c -> {
            List<T> out = new ArrayList<>();
            try (PreparedStatement select = c.prepareStatement(sql);
                    ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    out.add(row.read(rows));
                }
            }
            return out;
        });
    }

    // ---------------------------------------------------------------- changes

    /**
     * Cancels pending order {@code orderId}: its items go back to stock, and what was paid is refunded to
     * the order's payment.
     *
     * @throws Refusal {@code E_POLICY} when the order is no longer pending
     */
    public Refund cancel(String orderId, String reason, Instant now) {
        return db.write("cancel order " + orderId, c -> {
            Order order = requirePending(c, orderId);
            try (PreparedStatement update = c.prepareStatement(
                    "UPDATE concierge_orders SET status = 'cancelled', cancel_reason = ?, updated_at = ?"
                            + " WHERE id = ? AND status = 'pending'")) {
                update.setString(1, reason);
                update.setLong(2, now.toEpochMilli());
                update.setString(3, orderId);
                update.executeUpdate();
            }
            for (OrderItem item : order.items()) {
                addStock(c, item.variantId(), 1);
            }
            return refund(c, order, order.totalCents(), "cancel", now);
        });
    }

    /**
     * Records the return of {@code positions} of delivered order {@code orderId}, refunding their price to
     * the order's payment.
     *
     * @throws Refusal {@code E_POLICY} when the order is not delivered, or an item was returned or
     *     exchanged already
     */
    public ReturnRequest returnItems(String orderId, List<Integer> positions, String reason, Instant now) {
        return db.write("return items of order " + orderId, c -> {
            Order order = requireDelivered(c, orderId);
            requireUntouched(c, order, positions);
            long refund = 0;
            for (int position : positions) {
                refund += order.item(position).orElseThrow().priceCents();
            }
            String id = nextId(c, "concierge_returns", "R", 1);
            ArrayNode items = Json.mapper().createArrayNode();
            positions.forEach(items::add);
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO concierge_returns (id, order_id, customer_id, items, refund_cents, refund_to, reason,"
                            + " status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'requested', ?)")) {
                insert.setString(1, id);
                insert.setString(2, orderId);
                insert.setString(3, order.customerId());
                insert.setString(4, Json.write(items));
                insert.setLong(5, refund);
                insert.setString(6, order.payment().label());
                insert.setString(7, reason.isBlank() ? null : reason);
                insert.setLong(8, now.toEpochMilli());
                insert.executeUpdate();
            }
            refund(c, order, refund, "return", now);
            return new ReturnRequest(
                    id,
                    orderId,
                    order.customerId(),
                    positions,
                    refund,
                    order.payment().label(),
                    reason.isBlank() ? Optional.empty() : Optional.of(reason),
                    "requested",
                    Instant.ofEpochMilli(now.toEpochMilli()));
        });
    }

    /**
     * Exchanges item {@code position} of delivered order {@code orderId} for variant {@code toVariant}
     * (one unit taken from its stock).
     *
     * @throws Refusal {@code E_POLICY} when the order is not delivered, the item was returned or exchanged
     *     already, or the variant is out of stock
     */
    public Exchange exchange(String orderId, int position, String toVariant, Instant now) {
        return db.write("exchange an item of order " + orderId, c -> {
            Order order = requireDelivered(c, orderId);
            requireUntouched(c, order, List.of(position));
            OrderItem item = order.item(position).orElseThrow();
            Variant target = takeStock(c, toVariant);
            String id = nextId(c, "concierge_exchanges", "X", 1);
            long difference = target.priceCents() - item.priceCents();
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO concierge_exchanges (id, order_id, customer_id, item_position, from_variant, to_variant,"
                            + " price_difference_cents, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'requested', ?)")) {
                insert.setString(1, id);
                insert.setString(2, orderId);
                insert.setString(3, order.customerId());
                insert.setInt(4, position);
                insert.setString(5, item.variantId());
                insert.setString(6, toVariant);
                insert.setLong(7, difference);
                insert.setLong(8, now.toEpochMilli());
                insert.executeUpdate();
            }
            return new Exchange(
                    id,
                    orderId,
                    order.customerId(),
                    position,
                    item.variantId(),
                    toVariant,
                    difference,
                    "requested",
                    Instant.ofEpochMilli(now.toEpochMilli()));
        });
    }

    /**
     * Changes item {@code position} of pending order {@code orderId} to variant {@code toVariant}: the old
     * variant goes back to stock, the new one is taken from it, and the item's price becomes the new
     * variant's.
     *
     * @throws Refusal {@code E_POLICY} when the order is no longer pending or the variant is out of stock
     */
    public Order changeItem(String orderId, int position, String toVariant, Instant now) {
        return db.write("change an item of order " + orderId, c -> {
            Order order = requirePending(c, orderId);
            OrderItem item = order.item(position).orElseThrow();
            Variant target = takeStock(c, toVariant);
            addStock(c, item.variantId(), 1);
            try (PreparedStatement update = c.prepareStatement(
                    "UPDATE concierge_order_items SET variant_id = ?, price_cents = ? WHERE order_id = ? AND position = ?")) {
                update.setString(1, toVariant);
                update.setLong(2, target.priceCents());
                update.setString(3, orderId);
                update.setInt(4, position);
                update.executeUpdate();
            }
            touch(c, orderId, now);
            return orders(c, " WHERE id = ?", orderId).get(0);
        });
    }

    /**
     * Ships pending order {@code orderId} to {@code address}.
     *
     * @throws Refusal {@code E_POLICY} when the order is no longer pending
     */
    public Order changeAddress(String orderId, String address, Instant now) {
        return db.write("change the address of order " + orderId, c -> {
            requirePending(c, orderId);
            try (PreparedStatement update = c.prepareStatement(
                    "UPDATE concierge_orders SET address = ?, updated_at = ? WHERE id = ? AND status = 'pending'")) {
                update.setString(1, address);
                update.setLong(2, now.toEpochMilli());
                update.setString(3, orderId);
                update.executeUpdate();
            }
            return orders(c, " WHERE id = ?", orderId).get(0);
        });
    }

    /** Makes {@code address} the address on {@code customerId}'s account (orders already placed keep theirs). */
    public Customer changeCustomerAddress(String customerId, String address) {
        return db.write("change the address of customer " + customerId, c -> {
            try (PreparedStatement update =
                    c.prepareStatement("UPDATE concierge_customers SET address = ? WHERE id = ?")) {
                update.setString(1, address);
                update.setString(2, customerId);
                update.executeUpdate();
            }
            return customers(c, " WHERE id = ?", customerId).get(0);
        });
    }

    /**
     * Places a pending order for {@code customerId} of one unit of each of {@code variantIds} (a variant
     * may repeat), shipped to their address and paid with their payment on file.
     *
     * @throws Refusal {@code E_POLICY} when a variant has fewer units in stock than asked
     */
    public Order placeOrder(String customerId, List<String> variantIds, Instant now) {
        return db.write("place an order for " + customerId, c -> {
            Customer customer = customers(c, " WHERE id = ?", customerId).get(0);
            List<Variant> taken = new ArrayList<>();
            for (String variantId : variantIds) {
                taken.add(takeStock(c, variantId));
            }
            String id = nextId(c, "concierge_orders", "W", 1001);
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO concierge_orders (id, customer_id, status, address, payment, cancel_reason, created_at,"
                            + " updated_at) VALUES (?, ?, 'pending', ?, ?, NULL, ?, ?)")) {
                insert.setString(1, id);
                insert.setString(2, customerId);
                insert.setString(3, customer.address());
                insert.setString(4, Json.write(customer.payment().toJson()));
                insert.setLong(5, now.toEpochMilli());
                insert.setLong(6, now.toEpochMilli());
                insert.executeUpdate();
            }
            insertItems(c, id, taken);
            return orders(c, " WHERE id = ?", id).get(0);
        });
    }

    /** Opens a ticket (or, with {@code kind} {@code human}, a request for a person) and returns it. */
    public Ticket openTicket(
            String user,
            String session,
            Optional<String> customerId,
            Optional<String> orderId,
            String kind,
            String subject,
            String body,
            Instant now) {
        return db.write("open a ticket", c -> {
            String id = nextId(c, "concierge_tickets", "T", 1);
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO concierge_tickets (id, user_id, session_id, customer_id, order_id, kind, subject, body,"
                            + " status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'open', ?)")) {
                insert.setString(1, id);
                insert.setString(2, user);
                insert.setString(3, session);
                insert.setString(4, customerId.orElse(null));
                insert.setString(5, orderId.orElse(null));
                insert.setString(6, kind);
                insert.setString(7, subject);
                insert.setString(8, body);
                insert.setLong(9, now.toEpochMilli());
                insert.executeUpdate();
            }
            return new Ticket(
                    id,
                    user,
                    session,
                    customerId,
                    orderId,
                    kind,
                    subject,
                    body,
                    "open",
                    Instant.ofEpochMilli(now.toEpochMilli()));
        });
    }

    // ---------------------------------------------------------------- identities

    /** Records that {@code user}'s session {@code session} verified customer {@code customerId} (replacing any earlier one). */
    public void verify(String user, String session, String customerId, String method, Instant now) {
        db.write("verify a customer", c -> {
            try (PreparedStatement delete =
                    c.prepareStatement("DELETE FROM concierge_identities WHERE user_id = ? AND session_id = ?")) {
                delete.setString(1, user);
                delete.setString(2, session);
                delete.executeUpdate();
            }
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO concierge_identities (user_id, session_id, customer_id, method, verified_at)"
                            + " VALUES (?, ?, ?, ?, ?)")) {
                insert.setString(1, user);
                insert.setString(2, session);
                insert.setString(3, customerId);
                insert.setString(4, method);
                insert.setLong(5, now.toEpochMilli());
                insert.executeUpdate();
            }
            return null;
        });
    }

    /** Who a conversation acts for, and how it came to ({@code email}, {@code code}, {@code token}, …). */
    public record Identity(String customerId, String method) {}

    /** Who {@code user}'s session {@code session} acts for, if anyone. */
    public Optional<Identity> identity(String user, String session) {
        return db.read("read a session's identity", c -> {
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT customer_id, method FROM concierge_identities WHERE user_id = ? AND session_id = ?")) {
                select.setString(1, user);
                select.setString(2, session);
                try (ResultSet row = select.executeQuery()) {
                    return row.next()
                            ? Optional.of(new Identity(row.getString(1), row.getString(2)))
                            : Optional.<Identity>empty();
                }
            }
        });
    }

    /** The customer {@code user}'s session {@code session} verified, if it did. */
    public Optional<Customer> verifiedCustomer(String user, String session) {
        return db.read("read a session's identity", c -> {
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT customer_id FROM concierge_identities WHERE user_id = ? AND session_id = ?")) {
                select.setString(1, user);
                select.setString(2, session);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        return Optional.<Customer>empty();
                    }
                    return customers(c, " WHERE id = ?", row.getString(1)).stream()
                            .findFirst();
                }
            }
        });
    }

    /** The customer a storefront vouched for in a conversation, and how ({@code token} or {@code key}). */
    public record Vouched(String email, String source) {
        public Vouched {
            Objects.requireNonNull(email, "email");
            Objects.requireNonNull(source, "source");
        }
    }

    /** What the storefront vouched for in {@code user}'s session {@code session}, if it ever did. */
    public Optional<Vouched> vouched(String user, String session) {
        return db.read("read a session's vouch", c -> {
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT email, source FROM concierge_vouches WHERE user_id = ? AND session_id = ?")) {
                select.setString(1, user);
                select.setString(2, session);
                try (ResultSet row = select.executeQuery()) {
                    return row.next()
                            ? Optional.of(new Vouched(row.getString(1), row.getString(2)))
                            : Optional.<Vouched>empty();
                }
            }
        });
    }

    /**
     * Records that the storefront vouched for {@code email} in {@code user}'s session {@code session}, and
     * that the session acts for that customer when the shop has one with that email.
     *
     * @return the customer, when the shop has one with that email
     */
    public Optional<Customer> vouch(String user, String session, String email, String source, Instant now) {
        Optional<Customer> customer = customerByEmail(ownerOf(user), email);
        db.write("record a session's vouch", c -> {
            try (PreparedStatement delete =
                    c.prepareStatement("DELETE FROM concierge_vouches WHERE user_id = ? AND session_id = ?")) {
                delete.setString(1, user);
                delete.setString(2, session);
                delete.executeUpdate();
            }
            try (PreparedStatement insert =
                    c.prepareStatement("INSERT INTO concierge_vouches (user_id, session_id, email, source, vouched_at)"
                            + " VALUES (?, ?, ?, ?, ?)")) {
                insert.setString(1, user);
                insert.setString(2, session);
                insert.setString(3, email.strip().toLowerCase(Locale.ROOT));
                insert.setString(4, source);
                insert.setLong(5, now.toEpochMilli());
                insert.executeUpdate();
            }
            return null;
        });
        customer.ifPresent(found -> verify(user, session, found.id(), source, now));
        return customer;
    }

    /** What became of a code said back: see {@link #checkCode}. */
    public sealed interface CodeCheck {
        /** The code is right: the conversation now acts for {@code customerId}; {@code text} asked for it. */
        record Accepted(String customerId, Optional<String> text) implements CodeCheck {}

        /** The code is not the one sent; {@code triesLeft} more may be made. */
        record Wrong(int triesLeft) implements CodeCheck {}

        /** The code waited for has expired: a new one must be asked for. */
        record Expired() implements CodeCheck {}

        /** Every try of the code waited for was used: a new one must be asked for. */
        record Exhausted() implements CodeCheck {}

        /**
         * Too many wrong codes were said for the code's address lately, in any conversation: this one is not
         * checked ({@link OneTimeCodes#WRONG_TRIES_PER_ADDRESS} in {@link OneTimeCodes#WRONG_WINDOW}).
         */
        record Limited() implements CodeCheck {}

        /** The conversation waits for no code. */
        record NoneWaiting() implements CodeCheck {}
    }

    /**
     * Keeps the code {@code user}'s session {@code session} now waits for (replacing any earlier one): its
     * hash, for customer {@code customerId}, with {@code tries} tries until {@code expires}, asked for by
     * run {@code runId}.
     */
    public void awaitCode(
            String user,
            String session,
            String customerId,
            String codeHash,
            int tries,
            Instant expires,
            String runId,
            Instant now) {
        db.write("keep a one-time code", c -> {
            try (PreparedStatement delete =
                    c.prepareStatement("DELETE FROM concierge_codes WHERE user_id = ? AND session_id = ?")) {
                delete.setString(1, user);
                delete.setString(2, session);
                delete.executeUpdate();
            }
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO concierge_codes (user_id, session_id, customer_id, code_hash, tries_left, expires_at,"
                            + " run_id, text, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)")) {
                insert.setString(1, user);
                insert.setString(2, session);
                insert.setString(3, customerId);
                insert.setString(4, codeHash);
                insert.setInt(5, tries);
                insert.setLong(6, expires.toEpochMilli());
                insert.setString(7, runId);
                insert.setLong(8, now.toEpochMilli());
                insert.executeUpdate();
            }
            return null;
        });
    }

    /**
     * Counts a code asked for {@code address} in {@code user}'s session {@code session} against the limit
     * per address ({@link OneTimeCodes#SENDS_PER_ADDRESS} in {@link OneTimeCodes#SEND_WINDOW}, every
     * conversation together), in one transaction; whether it may be mailed (when not, it is not counted).
     */
    public boolean mayMailCode(String address, String user, String session, Instant now) {
        return db.write("count a code for an address", c -> {
            forgetOldCodeEvents(c, address, now);
            if (codeEvents(c, address, CODE_SENT, now.minus(OneTimeCodes.SEND_WINDOW))
                    >= OneTimeCodes.SENDS_PER_ADDRESS) {
                return false;
            }
            codeEvent(c, address, CODE_SENT, user, session, now);
            return true;
        });
    }

    /** Whether a code was asked for {@code address} in {@code user}'s session {@code session} since {@code since}. */
    public boolean codeAskedLately(String address, String user, String session, Instant since) {
        return db.read("read the codes asked for an address", c -> {
            try (PreparedStatement select = c.prepareStatement("SELECT 1 FROM concierge_code_events WHERE address = ?"
                    + " AND kind = ? AND user_id = ? AND session_id = ? AND at > ?")) {
                select.setString(1, address);
                select.setString(2, CODE_SENT);
                select.setString(3, user);
                select.setString(4, session);
                select.setLong(5, since.toEpochMilli());
                try (ResultSet row = select.executeQuery()) {
                    return row.next();
                }
            }
        });
    }

    private static final String CODE_SENT = "SENT";
    private static final String CODE_WRONG = "WRONG";

    private static int codeEvents(Connection c, String address, String kind, Instant since) throws SQLException {
        try (PreparedStatement select = c.prepareStatement(
                "SELECT COUNT(*) FROM concierge_code_events WHERE address = ? AND kind = ? AND at > ?")) {
            select.setString(1, address);
            select.setString(2, kind);
            select.setLong(3, since.toEpochMilli());
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getInt(1);
            }
        }
    }

    private static void codeEvent(Connection c, String address, String kind, String user, String session, Instant at)
            throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO concierge_code_events (address, kind, user_id,"
                + " session_id, at) VALUES (?, ?, ?, ?, ?)")) {
            insert.setString(1, address);
            insert.setString(2, kind);
            insert.setString(3, user);
            insert.setString(4, session);
            insert.setLong(5, at.toEpochMilli());
            insert.executeUpdate();
        }
    }

    /** Rows past the longest window count for nothing: each address's are deleted as it gets new ones. */
    private static void forgetOldCodeEvents(Connection c, String address, Instant now) throws SQLException {
        Duration longest = OneTimeCodes.SEND_WINDOW.compareTo(OneTimeCodes.WRONG_WINDOW) > 0
                ? OneTimeCodes.SEND_WINDOW
                : OneTimeCodes.WRONG_WINDOW;
        try (PreparedStatement delete =
                c.prepareStatement("DELETE FROM concierge_code_events WHERE address = ? AND at <= ?")) {
            delete.setString(1, address);
            delete.setLong(2, now.minus(longest).toEpochMilli());
            delete.executeUpdate();
        }
    }

    /** Keeps {@code text}, the message of run {@code runId}, as what the code that run asked for is for. */
    public void codeAskedBy(String user, String session, String runId, String text) {
        db.write("keep what a code is for", c -> {
            try (PreparedStatement update = c.prepareStatement("UPDATE concierge_codes SET text = ? WHERE user_id = ?"
                    + " AND session_id = ? AND run_id = ? AND text IS NULL")) {
                update.setString(1, text);
                update.setString(2, user);
                update.setString(3, session);
                update.setString(4, runId);
                update.executeUpdate();
            }
            return null;
        });
    }

    /** The customer whose code {@code user}'s session {@code session} waits for, while it can still be said back. */
    public Optional<String> codeWaiting(String user, String session, Instant now) {
        return db.read("read a session's code", c -> {
            try (PreparedStatement select = c.prepareStatement("SELECT customer_id FROM concierge_codes"
                    + " WHERE user_id = ? AND session_id = ? AND expires_at > ? AND tries_left > 0")) {
                select.setString(1, user);
                select.setString(2, session);
                select.setLong(3, now.toEpochMilli());
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? Optional.of(row.getString(1)) : Optional.<String>empty();
                }
            }
        });
    }

    /** Whether {@code user}'s session {@code session} waits for a code (one that expired or was used up included). */
    public boolean awaitsCode(String user, String session) {
        return db.read("read a session's code", c -> {
            try (PreparedStatement select =
                    c.prepareStatement("SELECT 1 FROM concierge_codes WHERE user_id = ? AND session_id = ?")) {
                select.setString(1, user);
                select.setString(2, session);
                try (ResultSet row = select.executeQuery()) {
                    return row.next();
                }
            }
        });
    }

    /**
     * Checks a code said back in {@code user}'s session {@code session} (by its hash) in one transaction: a
     * right one, in time and with tries left, verifies the session for the code's customer and is used
     * up; a wrong one uses a try.
     */
    public CodeCheck checkCode(String user, String session, String codeHash, Instant now) {
        return db.write("check a one-time code", c -> {
            String customerId;
            String hash;
            int triesLeft;
            long expires;
            String text;
            try (PreparedStatement select = c.prepareStatement("SELECT customer_id, code_hash, tries_left, expires_at,"
                    + " text FROM concierge_codes WHERE user_id = ? AND session_id = ?")) {
                select.setString(1, user);
                select.setString(2, session);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        return new CodeCheck.NoneWaiting();
                    }
                    customerId = row.getString(1);
                    hash = row.getString(2);
                    triesLeft = row.getInt(3);
                    expires = row.getLong(4);
                    text = row.getString(5);
                }
            }
            if (expires <= now.toEpochMilli()) {
                deleteCode(c, user, session);
                return new CodeCheck.Expired();
            }
            if (triesLeft <= 0) {
                return new CodeCheck.Exhausted();
            }
            String address;
            try (PreparedStatement select = c.prepareStatement("SELECT email FROM concierge_customers WHERE id = ?")) {
                select.setString(1, customerId);
                try (ResultSet row = select.executeQuery()) {
                    address = row.next() ? OneTimeCodes.address(row.getString(1)) : "customer:" + customerId;
                }
            }
            forgetOldCodeEvents(c, address, now);
            if (codeEvents(c, address, CODE_WRONG, now.minus(OneTimeCodes.WRONG_WINDOW))
                    >= OneTimeCodes.WRONG_TRIES_PER_ADDRESS) {
                // Not even compared: a right guess now would tell the guesser it was right.
                return new CodeCheck.Limited();
            }
            if (java.security.MessageDigest.isEqual(
                    hash.getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                    codeHash.getBytes(java.nio.charset.StandardCharsets.US_ASCII))) {
                deleteCode(c, user, session);
                return new CodeCheck.Accepted(customerId, Optional.ofNullable(text));
            }
            codeEvent(c, address, CODE_WRONG, user, session, now);
            try (PreparedStatement update = c.prepareStatement(
                    "UPDATE concierge_codes SET tries_left = tries_left - 1 WHERE user_id = ? AND session_id = ?")) {
                update.setString(1, user);
                update.setString(2, session);
                update.executeUpdate();
            }
            return new CodeCheck.Wrong(triesLeft - 1);
        });
    }

    private static void deleteCode(Connection c, String user, String session) throws SQLException {
        try (PreparedStatement delete =
                c.prepareStatement("DELETE FROM concierge_codes WHERE user_id = ? AND session_id = ?")) {
            delete.setString(1, user);
            delete.setString(2, session);
            delete.executeUpdate();
        }
    }

    /** The positions of {@code order}'s items already returned or exchanged. */
    public List<Integer> settledItems(String orderId) {
        return db.read("read what was returned of " + orderId, c -> settled(c, orderId));
    }

    // ---------------------------------------------------------------- the whole shop

    /**
     * Replaces everything in the concierge's tables — the shop, and every session, identity, message and
     * memory — with {@code data}, in one transaction.
     */
    public void load(DemoShop.Data data, Instant now) {
        load(data, DEFAULT_OWNER, now);
    }

    /**
     * Loads {@code data} as {@code owner}'s shop, in one transaction. The default shop's load replaces
     * everything in the concierge's tables (every shop, session, identity, message and memory); another
     * owner's replaces that owner's shop and conversations only.
     *
     * @throws WeftException {@code E_BAD_INPUT} when an id of {@code data} is another shop's (ids are the
     *     shop's own: a product, customer or order id names one thing across shops)
     */
    public void load(DemoShop.Data data, String owner, Instant now) {
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(owner, "owner");
        db.write("load the shop of '" + owner + "'", c -> {
            if (!owner.equals(DEFAULT_OWNER)) {
                forget(c, owner);
                taken(
                        c,
                        "concierge_products",
                        data.products().stream().map(Product::id).toList(),
                        owner);
                taken(
                        c,
                        "concierge_customers",
                        data.customers().stream().map(Customer::id).toList(),
                        owner);
                taken(
                        c,
                        "concierge_orders",
                        data.orders().stream().map(Order::id).toList(),
                        owner);
                insert(c, data, owner);
                return null;
            }
            for (String table : List.of(
                    "concierge_codes",
                    "concierge_vouches",
                    "concierge_memory",
                    "concierge_messages",
                    "concierge_sessions",
                    "concierge_identities",
                    "concierge_tickets",
                    "concierge_refunds",
                    "concierge_exchanges",
                    "concierge_returns",
                    "concierge_order_items",
                    "concierge_orders",
                    "concierge_customers",
                    "concierge_variants",
                    "concierge_products")) {
                try (PreparedStatement delete = c.prepareStatement("DELETE FROM " + table)) {
                    delete.executeUpdate();
                }
            }
            insert(c, data, owner);
            return null;
        });
    }

    /** Deletes {@code owner}'s shop and conversations. */
    private static void forget(Connection c, String owner) throws SQLException {
        String customers = "(SELECT id FROM concierge_customers WHERE org = ?)";
        String orders = "(SELECT id FROM concierge_orders WHERE org = ?)";
        String products = "(SELECT id FROM concierge_products WHERE org = ?)";
        for (String delete : List.of(
                "DELETE FROM concierge_codes WHERE user_id = ? OR customer_id IN " + customers,
                "DELETE FROM concierge_vouches WHERE user_id = ?",
                "DELETE FROM concierge_messages WHERE user_id = ?",
                "DELETE FROM concierge_sessions WHERE user_id = ?",
                "DELETE FROM concierge_identities WHERE user_id = ? OR customer_id IN " + customers,
                "DELETE FROM concierge_memory WHERE customer_id IN " + customers,
                "DELETE FROM concierge_tickets WHERE user_id = ? OR customer_id IN " + customers,
                "DELETE FROM concierge_refunds WHERE order_id IN " + orders,
                "DELETE FROM concierge_exchanges WHERE order_id IN " + orders,
                "DELETE FROM concierge_returns WHERE order_id IN " + orders,
                "DELETE FROM concierge_order_items WHERE order_id IN " + orders,
                "DELETE FROM concierge_orders WHERE org = ?",
                "DELETE FROM concierge_customers WHERE org = ?",
                "DELETE FROM concierge_variants WHERE product_id IN " + products,
                "DELETE FROM concierge_products WHERE org = ?")) {
            try (PreparedStatement statement = c.prepareStatement(delete)) {
                int parameters = (int) delete.chars().filter(ch -> ch == '?').count();
                for (int i = 1; i <= parameters; i++) {
                    statement.setString(i, owner);
                }
                statement.executeUpdate();
            }
        }
    }

    /** @throws WeftException {@code E_BAD_INPUT} when one of {@code ids} is a row of {@code table} another shop has */
    private static void taken(Connection c, String table, List<String> ids, String owner) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT org FROM " + table + " WHERE id = ?")) {
            for (String id : ids) {
                select.setString(1, id);
                try (ResultSet row = select.executeQuery()) {
                    if (row.next() && !row.getString(1).equals(owner)) {
                        String other = row.getString(1).isEmpty() ? "the default shop" : "'" + row.getString(1) + "'";
                        throw new WeftException(
                                ErrorCode.E_BAD_INPUT,
                                id + " is " + other + "'s already: a shop's ids are its own, so the same data cannot"
                                        + " be loaded for two owners; nothing was loaded");
                    }
                }
            }
        }
    }

    private static void insert(Connection c, DemoShop.Data data, String owner) throws SQLException {
        try (PreparedStatement product = c.prepareStatement(
                        "INSERT INTO concierge_products (id, name, name_he, category, keywords, description, org)"
                                + " VALUES (?, ?, ?, ?, ?, ?, ?)");
                PreparedStatement variant = c.prepareStatement(
                        "INSERT INTO concierge_variants (id, product_id, position, options, price_cents, stock)"
                                + " VALUES (?, ?, ?, ?, ?, ?)")) {
            for (Product p : data.products()) {
                product.setString(1, p.id());
                product.setString(2, p.name());
                product.setString(3, p.nameHe());
                product.setString(4, p.category());
                product.setString(5, Json.write(p.keywords()));
                product.setString(6, p.description());
                product.setString(7, owner);
                product.executeUpdate();
                int position = 0;
                for (Variant v : p.variants()) {
                    variant.setString(1, v.id());
                    variant.setString(2, p.id());
                    variant.setInt(3, ++position);
                    variant.setString(4, Json.write(v.optionsJson()));
                    variant.setLong(5, v.priceCents());
                    variant.setInt(6, v.stock());
                    variant.executeUpdate();
                }
            }
        }
        try (PreparedStatement customer = c.prepareStatement(
                "INSERT INTO concierge_customers (id, name, email, postcode, address, payment, language, org)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (Customer x : data.customers()) {
                customer.setString(1, x.id());
                customer.setString(2, x.name());
                customer.setString(3, x.email());
                customer.setString(4, x.postcode());
                customer.setString(5, x.address());
                customer.setString(6, Json.write(x.payment().toJson()));
                customer.setString(7, x.language());
                customer.setString(8, owner);
                customer.executeUpdate();
            }
        }
        try (PreparedStatement order = c.prepareStatement(
                        "INSERT INTO concierge_orders (id, customer_id, status, address, payment, cancel_reason,"
                                + " created_at, updated_at, org) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
                PreparedStatement item = c.prepareStatement(
                        "INSERT INTO concierge_order_items (order_id, position, variant_id, price_cents)"
                                + " VALUES (?, ?, ?, ?)")) {
            for (Order o : data.orders()) {
                order.setString(1, o.id());
                order.setString(2, o.customerId());
                order.setString(3, o.status().label());
                order.setString(4, o.address());
                order.setString(5, Json.write(o.payment().toJson()));
                order.setString(6, o.cancelReason().orElse(null));
                order.setLong(7, o.createdAt().toEpochMilli());
                order.setLong(8, o.updatedAt().toEpochMilli());
                order.setString(9, owner);
                order.executeUpdate();
                for (OrderItem i : o.items()) {
                    item.setString(1, o.id());
                    item.setInt(2, i.position());
                    item.setString(3, i.variantId());
                    item.setLong(4, i.priceCents());
                    item.executeUpdate();
                }
            }
        }
    }

    /**
     * Everything a conversation can change, as JSON, to compare before and after: every order (status,
     * address, cancel reason, items by variant), stock by variant, customers' addresses, and every return,
     * exchange, refund and ticket (without ids or times, which depend on the order of events).
     */
    public ObjectNode snapshot() {
        ObjectNode root = Json.object();
        ObjectNode orders = root.putObject("orders");
        for (Order order : orders()) {
            ObjectNode o = orders.putObject(order.id());
            o.put("customer", order.customerId());
            o.put("status", order.status().label());
            o.put("address", order.address());
            order.cancelReason().ifPresent(r -> o.put("cancelReason", r));
            ArrayNode items = o.putArray("items");
            order.items().forEach(i -> items.add(i.variantId()));
        }
        ObjectNode stock = root.putObject("stock");
        for (Product product : products()) {
            product.variants().forEach(v -> stock.put(v.id(), v.stock()));
        }
        ObjectNode addresses = root.putObject("addresses");
        customers().forEach(c -> addresses.put(c.id(), c.address()));
        ArrayNode returns = root.putArray("returns");
        for (ReturnRequest r : returns()) {
            ObjectNode json = returns.addObject();
            json.put("order", r.orderId());
            ArrayNode items = json.putArray("items");
            r.items().forEach(items::add);
            json.put("refund", Money.decimal(r.refundCents()));
            json.put("refundTo", r.refundTo());
        }
        ArrayNode exchanges = root.putArray("exchanges");
        for (Exchange x : exchanges()) {
            ObjectNode json = exchanges.addObject();
            json.put("order", x.orderId());
            json.put("item", x.itemPosition());
            json.put("from", x.fromVariant());
            json.put("to", x.toVariant());
        }
        ArrayNode refunds = root.putArray("refunds");
        for (Refund f : refunds()) {
            ObjectNode json = refunds.addObject();
            json.put("order", f.orderId());
            json.put("amount", Money.decimal(f.amountCents()));
            json.put("method", f.method());
            json.put("kind", f.kind());
        }
        ArrayNode tickets = root.putArray("tickets");
        for (Ticket t : tickets()) {
            ObjectNode json = tickets.addObject();
            json.put("kind", t.kind());
            json.put("customer", t.customerId().orElse(""));
            json.put("order", t.orderId().orElse(""));
        }
        return root;
    }

    // ---------------------------------------------------------------- inside transactions

    private static Order requireOrder(Connection c, String orderId) throws SQLException {
        List<Order> found = orders(c, " WHERE id = ?", orderId);
        if (found.isEmpty()) {
            throw new Refusal(ErrorCode.E_NOT_FOUND, "order_not_found", "there is no order " + orderId);
        }
        return found.get(0);
    }

    private static Order requirePending(Connection c, String orderId) throws SQLException {
        Order order = requireOrder(c, orderId);
        if (order.status() != OrderStatus.PENDING) {
            throw notPending(order);
        }
        return order;
    }

    private static Order requireDelivered(Connection c, String orderId) throws SQLException {
        Order order = requireOrder(c, orderId);
        if (order.status() != OrderStatus.DELIVERED) {
            throw notDelivered(order);
        }
        return order;
    }

    static Refusal notPending(Order order) {
        ObjectNode details = Json.object();
        details.put("orderId", order.id());
        details.put("status", order.status().label());
        return new Refusal(
                ErrorCode.E_POLICY,
                "not_pending",
                "order " + order.id() + " is " + order.status().label()
                        + "; only pending orders can be cancelled or changed",
                details);
    }

    static Refusal notDelivered(Order order) {
        ObjectNode details = Json.object();
        details.put("orderId", order.id());
        details.put("status", order.status().label());
        return new Refusal(
                ErrorCode.E_POLICY,
                "not_delivered",
                "order " + order.id() + " is " + order.status().label()
                        + "; only delivered items can be returned or exchanged",
                details);
    }

    private static void requireUntouched(Connection c, Order order, List<Integer> positions) throws SQLException {
        List<Integer> settled = settled(c, order.id());
        for (int position : positions) {
            if (order.item(position).isEmpty()) {
                throw new Refusal(
                        ErrorCode.E_NOT_FOUND, "item_not_found", "order " + order.id() + " has no item " + position);
            }
            if (settled.contains(position)) {
                ObjectNode details = Json.object();
                details.put("orderId", order.id());
                details.put("position", position);
                throw new Refusal(
                        ErrorCode.E_POLICY,
                        "already_settled",
                        "item " + position + " of order " + order.id() + " was already returned or exchanged",
                        details);
            }
        }
    }

    private static List<Integer> settled(Connection c, String orderId) throws SQLException {
        List<Integer> settled = new ArrayList<>();
        try (PreparedStatement select = c.prepareStatement("SELECT items FROM concierge_returns WHERE order_id = ?")) {
            select.setString(1, orderId);
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    settled.addAll(positions(row.getString(1)));
                }
            }
        }
        try (PreparedStatement select =
                c.prepareStatement("SELECT item_position FROM concierge_exchanges WHERE order_id = ?")) {
            select.setString(1, orderId);
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    settled.add(row.getInt(1));
                }
            }
        }
        return settled;
    }

    private static Variant takeStock(Connection c, String variantId) throws SQLException {
        try (PreparedStatement update =
                c.prepareStatement("UPDATE concierge_variants SET stock = stock - 1 WHERE id = ? AND stock > 0")) {
            update.setString(1, variantId);
            if (update.executeUpdate() == 0) {
                ObjectNode details = Json.object();
                details.put("variantId", variantId);
                throw new Refusal(
                        ErrorCode.E_POLICY, "out_of_stock", "variant " + variantId + " is out of stock", details);
            }
        }
        return variant(c, variantId);
    }

    private static void addStock(Connection c, String variantId, int units) throws SQLException {
        try (PreparedStatement update =
                c.prepareStatement("UPDATE concierge_variants SET stock = stock + ? WHERE id = ?")) {
            update.setInt(1, units);
            update.setString(2, variantId);
            update.executeUpdate();
        }
    }

    private static Variant variant(Connection c, String variantId) throws SQLException {
        try (PreparedStatement select = c.prepareStatement(
                "SELECT id, product_id, options, price_cents, stock FROM concierge_variants WHERE id = ?")) {
            select.setString(1, variantId);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    throw new Refusal(ErrorCode.E_NOT_FOUND, "variant_not_found", "there is no variant " + variantId);
                }
                return new Variant(
                        row.getString(1), row.getString(2), options(row.getString(3)), row.getLong(4), row.getInt(5));
            }
        }
    }

    private static void insertItems(Connection c, String orderId, List<Variant> variants) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO concierge_order_items (order_id, position, variant_id, price_cents) VALUES (?, ?, ?, ?)")) {
            int position = 0;
            for (Variant v : variants) {
                insert.setString(1, orderId);
                insert.setInt(2, ++position);
                insert.setString(3, v.id());
                insert.setLong(4, v.priceCents());
                insert.executeUpdate();
            }
        }
    }

    private static void touch(Connection c, String orderId, Instant now) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE concierge_orders SET updated_at = ? WHERE id = ?")) {
            update.setLong(1, now.toEpochMilli());
            update.setString(2, orderId);
            update.executeUpdate();
        }
    }

    private static Refund refund(Connection c, Order order, long cents, String kind, Instant now) throws SQLException {
        String id = nextId(c, "concierge_refunds", "F", 1);
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO concierge_refunds (id, order_id, customer_id, amount_cents, method, kind, created_at)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, id);
            insert.setString(2, order.id());
            insert.setString(3, order.customerId());
            insert.setLong(4, cents);
            insert.setString(5, order.payment().label());
            insert.setString(6, kind);
            insert.setLong(7, now.toEpochMilli());
            insert.executeUpdate();
        }
        return new Refund(
                id,
                order.id(),
                order.customerId(),
                cents,
                order.payment().label(),
                kind,
                Instant.ofEpochMilli(now.toEpochMilli()));
    }

    /** The next id of {@code table}: {@code prefix} and one more than the largest number after it (at least {@code first}). */
    private static String nextId(Connection c, String table, String prefix, int first) throws SQLException {
        long next = first;
        try (PreparedStatement select = c.prepareStatement("SELECT id FROM " + table);
                ResultSet row = select.executeQuery()) {
            while (row.next()) {
                String id = row.getString(1);
                if (id.startsWith(prefix) && id.substring(prefix.length()).matches("\\d+")) {
                    next = Math.max(next, Long.parseLong(id.substring(prefix.length())) + 1);
                }
            }
        }
        return prefix + (prefix.equals("W") ? String.valueOf(next) : String.format("%04d", next));
    }
}
