package dev.weft.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.assistant.Assistants;
import dev.weft.assistant.Vouch;
import dev.weft.concierge.Concierge;
import dev.weft.concierge.ConciergeAssistant;
import dev.weft.concierge.shop.DemoShop;
import dev.weft.concierge.shop.Shop;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code weft concierge …}: the shop's sales and support concierge one message at a time, the demo shop it
 * serves, and the shop as it now stands.
 */
@Command(
        name = "concierge",
        mixinStandardHelpOptions = true,
        description = "The concierge, a shop's sales and support assistant: load the demo shop, ask it something,"
                + " see the shop as it stands.",
        subcommands = {ConciergeCommand.Seed.class, ConciergeCommand.Ask.class, ConciergeCommand.ShopState.class})
final class ConciergeCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The concierge on {@code store}, with the configured model or offline. */
    static Concierge concierge(RunStore store) {
        return ((ConciergeAssistant) Assistants.open(Concierge.NAME, Storage.environment(store))).concierge();
    }

    /** What every concierge subcommand shares: the store, JSON output, error handling. */
    abstract static class ConciergeSubcommand extends StoreCommand {
        @Option(names = "--json", description = "Prints one JSON object (see the README for its fields).")
        boolean json;

        @Override
        boolean json() {
            return json;
        }
    }

    @Command(
            name = "seed",
            mixinStandardHelpOptions = true,
            description = {
                "Loads the demo shop and prints it.",
                "The same data every time; it replaces the shop and every conversation. --json prints {\"customers\":"
                        + " [{\"id\", \"name\", \"email\", \"postcode\", \"orders\": [{\"id\", \"status\", \"items\":"
                        + " [{\"product\", \"variant\", \"price\"}]}]}], \"products\": [{\"id\", \"name\", \"variants\":"
                        + " [{\"id\", \"options\", \"price\", \"stock\"}]}]}."
            })
    static final class Seed extends ConciergeSubcommand {
        @Option(
                names = "--owner",
                paramLabel = "USER",
                description = "Loads the demo shop as USER's own (the user of the shop's keys): only USER's"
                        + " shop and conversations are replaced, and no other user sees it. Default: the default"
                        + " shop, which every user who owns none sees; loading it replaces everything.")
        String owner;

        @Override
        int call(RunStore store, PrintWriter out) {
            Shop shop = concierge(store).shop();
            String whose = owner == null ? Shop.DEFAULT_OWNER : owner;
            DemoShop.load(shop, whose, Instant.now());
            ObjectNode loaded = DemoShop.toJson(shop, whose);
            if (json) {
                out.println(Json.write(loaded));
                return ExitCodes.OK;
            }
            int orders = 0;
            for (var customer : loaded.get("customers")) {
                orders += customer.get("orders").size();
            }
            out.println("Loaded the demo shop: " + loaded.get("products").size() + " products, "
                    + loaded.get("customers").size() + " customers, " + orders + " orders. Try:");
            out.println(
                    "  WEFT_SHOP_VERIFY=demo weft concierge ask --session try-1 \"Where is my order W1049? liam.smith@example.com\"");
            out.println(
                    "  (outside the demo a customer is vouched for with --customer-token, or proves the address by a code)");
            out.println("  weft chat --assistant concierge");
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "ask",
            mixinStandardHelpOptions = true,
            description = {
                "One customer turn of conversation ID: prints the concierge's reply.",
                "A change waits for the customer's yes: the next ask of the session ('yes', 'כן') carries it out,"
                        + " anything else does not. Who the customer is: --customer-token (the storefront vouches),"
                        + " else a one-time code mailed to the account's address (WEFT_SHOP_SMTP) said back in the"
                        + " conversation; WEFT_SHOP_VERIFY=demo takes an email as proof (a demo only)."
                        + " A bad token fails with E_CUSTOMER_TOKEN_INVALID (exit 1) and changes nothing. --json prints {\"session\", \"runId\", \"goal\", \"reply\","
                        + " \"language\", \"toolCalls\": [{\"name\", \"args\", \"ok\"}]}. Exit status: 0 answered (or"
                        + " waiting for a yes), 1 the turn failed, 2 bad input."
            })
    static final class Ask extends ConciergeSubcommand {
        @Option(names = "--session", paramLabel = "ID", required = true, description = "The conversation.")
        String session;

        @Option(
                names = "--user",
                paramLabel = "ID",
                description = "Whose conversations (default: WEFT_USER, else your login).")
        String user;

        @Option(
                names = "--customer-token",
                paramLabel = "JWT",
                description = "The storefront vouches for the customer: a JWT signed HS256 with WEFT_SHOP_SECRET,"
                        + " its sub the customer's email. The conversation then acts for that customer only.")
        String customerToken;

        @Parameters(paramLabel = "MESSAGE", arity = "0..*", description = "What the customer says.")
        List<String> words = new ArrayList<>();

        @Override
        int call(RunStore store, PrintWriter out) {
            String message = String.join(" ", words);
            if (message.isBlank()) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "the message is empty: say something to the concierge");
            }
            Concierge concierge = concierge(store);
            if (concierge.shop().products().isEmpty()) {
                spec.commandLine()
                        .getErr()
                        .println("weft: the shop has no products yet; load the demo shop with 'weft concierge seed'");
            }
            Concierge.Reply reply;
            try {
                reply = concierge.converse(
                        Storage.runner(store).build(),
                        user == null ? MemoCommand.defaultUser() : user,
                        session,
                        message,
                        Optional.empty(),
                        Optional.ofNullable(customerToken).map(Vouch.SignedToken::new));
            } catch (WeftException e) {
                if (e.code() == ErrorCode.E_BAD_INPUT) {
                    throw e;
                }
                return failed(out, e);
            }
            if (json) {
                out.println(Json.write(reply.json()));
            } else {
                out.println(reply.text());
            }
            return ExitCodes.OK;
        }

        private int failed(PrintWriter out, WeftException e) {
            if (json) {
                ObjectNode root = Json.object();
                root.put("session", session);
                root.putObject("error").put("code", e.code().name()).put("message", e.getMessage());
                out.println(Json.write(root));
            } else {
                spec.commandLine().getErr().println("weft: " + e.code() + ": " + e.getMessage());
            }
            return ExitCodes.FAILED;
        }
    }

    @Command(
            name = "shop",
            mixinStandardHelpOptions = true,
            description = {
                "Prints the shop as it now stands.",
                "Customers with their orders and products with their stock (the shape of 'seed --json'), and every"
                        + " return, exchange, refund and ticket."
            })
    static final class ShopState extends ConciergeSubcommand {
        @Option(names = "--owner", paramLabel = "USER", description = "USER's shop (default: the default shop).")
        String owner;

        @Override
        int call(RunStore store, PrintWriter out) {
            Shop shop = concierge(store).shop();
            ObjectNode state = DemoShop.toJson(shop, owner == null ? Shop.DEFAULT_OWNER : owner);
            ObjectNode changes = shop.snapshot();
            for (String list : List.of("returns", "exchanges", "refunds", "tickets")) {
                state.set(list, changes.get(list));
            }
            if (json) {
                out.println(Json.write(state));
                return ExitCodes.OK;
            }
            out.println(Json.mapper().valueToTree(state).toPrettyString());
            return ExitCodes.OK;
        }
    }
}
