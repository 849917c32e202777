package dev.weft.concierge.shop;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * The demo shop {@code weft concierge seed} loads: 16 products (three of them out of stock), 24
 * customers (half in the United States, half in Israel with Hebrew names) and 60 orders in every status,
 * made the same way every time (a fixed seed), so that conversations written against it stay true.
 * Stateless.
 */
public final class DemoShop {
    /** The shop's data, before it is loaded. */
    public record Data(List<Product> products, List<Customer> customers, List<Order> orders) {
        public Data {
            products = List.copyOf(products);
            customers = List.copyOf(customers);
            orders = List.copyOf(orders);
        }
    }

    private static final Instant FIRST_ORDER = Instant.parse("2026-01-05T09:30:00Z");

    private DemoShop() {}

    /** Loads the demo shop into {@code shop}, replacing everything in the concierge's tables. */
    public static void load(Shop shop, Instant now) {
        shop.load(data(), now);
    }

    /** Loads the demo shop as {@code owner}'s ({@link Shop#load(Data, String, Instant)}). */
    public static void load(Shop shop, String owner, Instant now) {
        shop.load(data(), owner, now);
    }

    /** The demo shop's data: the same every time. */
    public static Data data() {
        List<Product> products = products();
        List<Customer> customers = customers();
        return new Data(products, customers, orders(products, customers));
    }

    /**
     * The shop as {@code weft concierge seed --json} prints it: {@code {"customers": [{"id", "name",
     * "email", "postcode", "orders": [{"id", "status", "items": [{"product", "variant", "price"}]}]}],
     * "products": [{"id", "name", "variants": [{"id", "options", "price", "stock"}]}]}}.
     */
    public static ObjectNode toJson(Shop shop) {
        return toJson(shop, Shop.DEFAULT_OWNER);
    }

    /** {@code owner}'s shop in the shape of {@link #toJson(Shop)}. */
    public static ObjectNode toJson(Shop shop, String owner) {
        ObjectNode root = Json.object();
        List<Product> products = shop.products(owner);
        Map<String, Product> byVariant = new LinkedHashMap<>();
        products.forEach(p -> p.variants().forEach(v -> byVariant.put(v.id(), p)));
        ArrayNode customers = root.putArray("customers");
        for (Customer customer : shop.customers(owner)) {
            ObjectNode c = customers.addObject();
            c.put("id", customer.id());
            c.put("name", customer.name());
            c.put("email", customer.email());
            c.put("postcode", customer.postcode());
            ArrayNode orders = c.putArray("orders");
            for (Order order : shop.orders(customer.id())) {
                ObjectNode o = orders.addObject();
                o.put("id", order.id());
                o.put("status", order.status().label());
                ArrayNode items = o.putArray("items");
                for (OrderItem item : order.items()) {
                    ObjectNode i = items.addObject();
                    i.put("product", byVariant.get(item.variantId()).name());
                    i.put("variant", item.variantId());
                    i.put("price", Money.decimal(item.priceCents()));
                }
            }
        }
        ArrayNode catalog = root.putArray("products");
        for (Product product : products) {
            ObjectNode p = catalog.addObject();
            p.put("id", product.id());
            p.put("name", product.name());
            ArrayNode variants = p.putArray("variants");
            for (Variant variant : product.variants()) {
                ObjectNode v = variants.addObject();
                v.put("id", variant.id());
                v.set("options", variant.optionsJson());
                v.put("price", Money.decimal(variant.priceCents()));
                v.put("stock", variant.stock());
            }
        }
        return root;
    }

    // ---------------------------------------------------------------- the catalog

    private static List<Product> products() {
        List<Product> products = new ArrayList<>();
        products.add(product(
                1,
                "Linen Shirt",
                "חולצת פשתן",
                "apparel",
                "shirt linen button-down חולצה חולצת פשתן מכופתרת",
                "A breathable linen shirt with buttons.",
                grid("color", List.of("white", "blue", "beige"), "size", List.of("S", "M", "L")),
                v -> 4500,
                List.of(6, 0, 3, 4, 5, 2, 3, 0, 1)));
        products.add(product(
                2,
                "Cotton T-Shirt",
                "טי-שירט כותנה",
                "apparel",
                "t-shirt tshirt tee cotton טישרט טי-שירט שירט חולצת טי כותנה",
                "A soft cotton crew-neck t-shirt.",
                grid("color", List.of("black", "white", "green"), "size", List.of("S", "M", "L", "XL")),
                v -> v.get("size").equals("XL") ? 2100 : 1900,
                List.of(8, 10, 7, 2, 5, 6, 0, 3, 2, 4, 4, 0)));
        products.add(product(
                3,
                "Denim Jacket",
                "ג'קט ג'ינס",
                "apparel",
                "jacket denim jean coat ג'קט גקט מעיל ג'ינס גינס",
                "A classic denim jacket.",
                grid("color", List.of("blue", "black"), "size", List.of("M", "L")),
                v -> 8900,
                List.of(3, 2, 0, 4)));
        products.add(product(
                4,
                "Running Shoes",
                "נעלי ריצה",
                "shoes",
                "shoes shoe sneakers trainers running runners נעליים נעלי נעל סניקרס ריצה",
                "Light running shoes with a cushioned sole.",
                grid("color", List.of("gray", "red"), "size", List.of("40", "42", "44")),
                v -> 12000,
                List.of(4, 6, 3, 2, 0, 5)));
        products.add(product(
                5,
                "Hiking Boots",
                "נעלי הליכה",
                "shoes",
                "boots boot hiking trekking מגפיים מגף נעלי הליכה טיולים",
                "Waterproof leather hiking boots.",
                grid("color", List.of("brown"), "size", List.of("41", "43")),
                v -> 15000,
                List.of(0, 0)));
        products.add(product(
                6,
                "Wool Scarf",
                "צעיף צמר",
                "accessories",
                "scarf wool צעיף צמר",
                "A warm merino wool scarf.",
                grid("color", List.of("gray", "red"), null, List.of()),
                v -> 2500,
                List.of(9, 4)));
        products.add(product(
                7,
                "Wireless Headphones",
                "אוזניות אלחוטיות",
                "electronics",
                "headphones headphone earphones headset wireless אוזניות אוזנייה אלחוטיות אלחוטי",
                "Over-ear wireless headphones with noise cancelling.",
                grid("color", List.of("black", "white"), null, List.of()),
                v -> 12900,
                List.of(5, 0)));
        products.add(product(
                8,
                "Bluetooth Speaker",
                "רמקול בלוטות'",
                "electronics",
                "speaker speakers bluetooth רמקול רמקולים בלוטות' בלוטוס",
                "A portable waterproof Bluetooth speaker.",
                grid("color", List.of("black", "blue"), null, List.of()),
                v -> 5900,
                List.of(7, 3)));
        products.add(product(
                9,
                "Espresso Machine",
                "מכונת אספרסו",
                "kitchen",
                "espresso coffee machine maker מכונת מכונה קפה אספרסו",
                "A compact espresso machine with a milk frother.",
                grid("color", List.of("silver"), null, List.of()),
                v -> 24900,
                List.of(0)));
        products.add(product(
                10,
                "Water Bottle",
                "בקבוק מים",
                "outdoors",
                "bottle water flask בקבוק בקבוקי מים",
                "An insulated steel water bottle.",
                grid("color", List.of("blue", "green"), "capacity", List.of("500ml", "750ml")),
                v -> v.get("capacity").equals("750ml") ? 2500 : 2200,
                List.of(12, 6, 0, 8)));
        products.add(product(
                11,
                "Yoga Mat",
                "מזרן יוגה",
                "outdoors",
                "yoga mat מזרן מזרון יוגה",
                "A non-slip yoga mat.",
                grid("color", List.of("purple", "green"), null, List.of()),
                v -> 3500,
                List.of(5, 5)));
        products.add(product(
                12,
                "Backpack",
                "תיק גב",
                "outdoors",
                "backpack rucksack bag daypack תיק גב תרמיל",
                "A water-resistant everyday backpack.",
                grid("color", List.of("black", "gray"), "capacity", List.of("20L", "30L")),
                v -> v.get("capacity").equals("30L") ? 8500 : 7500,
                List.of(4, 2, 3, 0)));
        products.add(product(
                13,
                "Desk Lamp",
                "מנורת שולחן",
                "home",
                "lamp desk light מנורה מנורת שולחן",
                "An adjustable LED desk lamp.",
                grid("color", List.of("white", "black"), null, List.of()),
                v -> 4200,
                List.of(6, 2)));
        products.add(product(
                14,
                "Ceramic Mug",
                "ספל קרמיקה",
                "kitchen",
                "mug mugs cup ceramic ספל ספלים כוס קרמיקה",
                "A 350 ml ceramic mug.",
                grid("color", List.of("white", "blue"), null, List.of()),
                v -> 1200,
                List.of(20, 15)));
        products.add(product(
                15,
                "Sunglasses",
                "משקפי שמש",
                "accessories",
                "sunglasses glasses shades משקפי משקפיים שמש",
                "Polarized sunglasses.",
                grid("color", List.of("black", "tortoise"), null, List.of()),
                v -> 6500,
                List.of(0, 0)));
        products.add(product(
                16,
                "Smart Watch",
                "שעון חכם",
                "electronics",
                "watch smartwatch smart שעון חכם",
                "A fitness smart watch with GPS.",
                grid("color", List.of("black", "silver"), "size", List.of("40mm", "44mm")),
                v -> v.get("size").equals("44mm") ? 21900 : 19900,
                List.of(3, 1, 2, 0)));
        return products;
    }

    private static Product product(
            int number,
            String name,
            String nameHe,
            String category,
            String keywords,
            String description,
            List<Map<String, String>> options,
            java.util.function.ToLongFunction<Map<String, String>> price,
            List<Integer> stock) {
        String id = String.format("P%02d", number);
        List<Variant> variants = new ArrayList<>();
        for (int i = 0; i < options.size(); i++) {
            variants.add(new Variant(
                    String.format("V%02d%02d", number, i + 1),
                    id,
                    options.get(i),
                    price.applyAsLong(options.get(i)),
                    stock.get(i)));
        }
        return new Product(id, name, nameHe, category, List.of(keywords.split(" ")), description, variants);
    }

    /** Every combination of the first option's values with the second's (none: the first alone). */
    private static List<Map<String, String>> grid(
            String first, List<String> firstValues, String second, List<String> secondValues) {
        List<Map<String, String>> grid = new ArrayList<>();
        for (String a : firstValues) {
            if (second == null) {
                grid.add(Map.of(first, a));
                continue;
            }
            for (String b : secondValues) {
                Map<String, String> options = new LinkedHashMap<>();
                options.put(first, a);
                options.put(second, b);
                grid.add(options);
            }
        }
        return grid;
    }

    // ---------------------------------------------------------------- customers

    private static List<Customer> customers() {
        String[][] rows = {
            {
                "Emma Johnson",
                "emma.johnson@example.com",
                "10001",
                "12 Maple Street, New York, NY 10001",
                "credit_card",
                "Visa ending 4242",
                "en"
            },
            {
                "Liam Smith",
                "liam.smith@example.com",
                "94103",
                "450 Mission Street, San Francisco, CA 94103",
                "credit_card",
                "Mastercard ending 5100",
                "en"
            },
            {
                "Olivia Brown",
                "olivia.brown@example.com",
                "60614",
                "2200 N Clark Street, Chicago, IL 60614",
                "paypal",
                "PayPal olivia.brown@example.com",
                "en"
            },
            {
                "Noah Davis",
                "noah.davis@example.com",
                "73301",
                "801 Congress Avenue, Austin, TX 73301",
                "credit_card",
                "Visa ending 1881",
                "en"
            },
            {
                "Ava Wilson",
                "ava.wilson@example.com",
                "02139",
                "77 Mass Avenue, Cambridge, MA 02139",
                "credit_card",
                "Amex ending 0005",
                "en"
            },
            {
                "Ethan Miller",
                "ethan.miller@example.com",
                "98101",
                "1500 4th Avenue, Seattle, WA 98101",
                "gift_card",
                "Gift card GC-7733",
                "en"
            },
            {
                "Sophia Garcia",
                "sophia.garcia@example.com",
                "33101",
                "90 SW 8th Street, Miami, FL 33101",
                "credit_card",
                "Visa ending 3056",
                "en"
            },
            {
                "Mason Martinez",
                "mason.martinez@example.com",
                "80202",
                "1600 Glenarm Place, Denver, CO 80202",
                "credit_card",
                "Mastercard ending 4444",
                "en"
            },
            {
                "Isabella Anderson",
                "isabella.anderson@example.com",
                "30301",
                "55 Peachtree Street, Atlanta, GA 30301",
                "paypal",
                "PayPal isabella.anderson@example.com",
                "en"
            },
            {
                "Lucas Taylor",
                "lucas.taylor@example.com",
                "85001",
                "300 W Washington Street, Phoenix, AZ 85001",
                "credit_card",
                "Visa ending 9012",
                "en"
            },
            {
                "Mia Thomas",
                "mia.thomas@example.com",
                "19103",
                "1800 Market Street, Philadelphia, PA 19103",
                "credit_card",
                "Mastercard ending 2222",
                "en"
            },
            {
                "Daniel Cohen",
                "daniel.cohen@example.com",
                "10001",
                "5 Penn Plaza, New York, NY 10001",
                "credit_card",
                "Visa ending 7777",
                "en"
            },
            {
                "נועה כהן",
                "noa.cohen@example.co.il",
                "6473921",
                "רחוב הרצל 12, תל אביב",
                "credit_card",
                "Visa ending 4321",
                "he"
            },
            {
                "יוסי לוי",
                "yossi.levi@example.co.il",
                "3303112",
                "שדרות בן גוריון 5, חיפה",
                "credit_card",
                "Mastercard ending 8080",
                "he"
            },
            {
                "מיכל אברהם",
                "michal.avraham@example.co.il",
                "9414601",
                "רחוב יפו 97, ירושלים",
                "paypal",
                "PayPal michal.avraham@example.co.il",
                "he"
            },
            {
                "אבי מזרחי",
                "avi.mizrahi@example.co.il",
                "8410501",
                "רחוב רגר 30, באר שבע",
                "credit_card",
                "Isracard ending 1234",
                "he"
            },
            {
                "שירה פרץ",
                "shira.peretz@example.co.il",
                "4422513",
                "רחוב ויצמן 40, כפר סבא",
                "credit_card",
                "Visa ending 6060",
                "he"
            },
            {
                "דניאל ביטון",
                "daniel.biton@example.co.il",
                "7565410",
                "רחוב רוטשילד 8, ראשון לציון",
                "gift_card",
                "Gift card GC-2020",
                "he"
            },
            {
                "תמר שפירא",
                "tamar.shapira@example.co.il",
                "5252007",
                "רחוב ביאליק 22, רמת גן",
                "credit_card",
                "Mastercard ending 3131",
                "he"
            },
            {
                "עומר גולן",
                "omer.golan@example.co.il",
                "4951021",
                "רחוב חיים עוזר 3, פתח תקווה",
                "credit_card",
                "Visa ending 8888",
                "he"
            },
            {
                "מאיה רוזן",
                "maya.rosen@example.co.il",
                "6296009",
                "רחוב דיזנגוף 150, תל אביב",
                "paypal",
                "PayPal maya.rosen@example.co.il",
                "he"
            },
            {
                "איתי ברק",
                "itay.barak@example.co.il",
                "7610001",
                "רחוב הרצל 60, רחובות",
                "credit_card",
                "Isracard ending 5757",
                "he"
            },
            {
                "רונית דהן",
                "ronit.dahan@example.co.il",
                "2620101",
                "שדרות ירושלים 14, קריית ביאליק",
                "credit_card",
                "Visa ending 1010",
                "he"
            },
            {
                "גיל אשכנזי",
                "gil.ashkenazi@example.co.il",
                "4366101",
                "רחוב אחוזה 101, רעננה",
                "credit_card",
                "Mastercard ending 9191",
                "he"
            },
        };
        List<Customer> customers = new ArrayList<>();
        for (int i = 0; i < rows.length; i++) {
            String[] r = rows[i];
            customers.add(
                    new Customer(String.format("C%02d", i + 1), r[0], r[1], r[2], r[3], new Payment(r[4], r[5]), r[6]));
        }
        return customers;
    }

    // ---------------------------------------------------------------- orders

    /** Each block of ten orders: four delivered, three pending, two processed, one cancelled. */
    private static final List<OrderStatus> STATUSES = List.of(
            OrderStatus.DELIVERED,
            OrderStatus.PENDING,
            OrderStatus.PROCESSED,
            OrderStatus.DELIVERED,
            OrderStatus.CANCELLED,
            OrderStatus.DELIVERED,
            OrderStatus.PENDING,
            OrderStatus.DELIVERED,
            OrderStatus.PROCESSED,
            OrderStatus.PENDING);

    private static List<Order> orders(List<Product> products, List<Customer> customers) {
        Random random = new Random(4);
        List<Order> orders = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            // Every customer has an order; after that, customers chosen at random have more.
            Customer customer = i < customers.size()
                    ? customers.get((i * 7) % customers.size())
                    : customers.get(random.nextInt(customers.size()));
            OrderStatus status = STATUSES.get(i % STATUSES.size());
            int count = 1 + random.nextInt(3);
            List<Product> chosen = new ArrayList<>();
            while (chosen.size() < count) {
                Product product = products.get(random.nextInt(products.size()));
                if (!chosen.contains(product)) {
                    chosen.add(product);
                }
            }
            List<OrderItem> items = new ArrayList<>();
            for (Product product : chosen) {
                Variant variant =
                        product.variants().get(random.nextInt(product.variants().size()));
                items.add(new OrderItem(items.size() + 1, variant.id(), variant.priceCents()));
            }
            Instant created = FIRST_ORDER.plus(Duration.ofHours(37L * i));
            orders.add(new Order(
                    "W" + (1001 + i),
                    customer.id(),
                    status,
                    customer.address(),
                    customer.payment(),
                    status == OrderStatus.CANCELLED ? Optional.of("no longer needed") : Optional.empty(),
                    created,
                    created,
                    items));
        }
        return orders;
    }
}
