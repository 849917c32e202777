package dev.weft.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.spi.RunStore;
import dev.weft.server.ApiKeys;
import java.io.PrintWriter;
import java.time.Instant;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code weft keys …}: the API keys {@code weft serve} lets in. */
@Command(
        name = "keys",
        mixinStandardHelpOptions = true,
        description = "API keys for 'weft serve': create one for a user (shown once), list them, revoke one.",
        subcommands = {KeysCommand.Create.class, KeysCommand.ListKeys.class, KeysCommand.Revoke.class})
final class KeysCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** What every keys subcommand shares: the store, JSON output, error handling. */
    abstract static class KeysSubcommand extends StoreCommand {
        @Option(names = "--json", description = "Prints JSON.")
        boolean json;

        @Override
        boolean json() {
            return json;
        }
    }

    @Command(
            name = "create",
            mixinStandardHelpOptions = true,
            description = "Makes an API key for a user and prints it; it is not kept and cannot be shown again.")
    static final class Create extends KeysSubcommand {
        @Option(names = "--user", paramLabel = "ID", required = true, description = "The user the key acts for.")
        String user;

        @Option(names = "--admin", description = "The key sees every user's runs.")
        boolean admin;

        @Option(
                names = "--customer",
                paramLabel = "EMAIL",
                description = "Makes the key for one shop customer: the concierge acts for that customer only,"
                        + " and the key reaches the chat routes only (/v1/chat/completions,"
                        + " /api/assistants/NAME/messages).")
        String customer;

        @Override
        int call(RunStore store, PrintWriter out) {
            ApiKeys.Created created =
                    ApiKeys.open(store).create(user, admin, java.util.Optional.ofNullable(customer), Instant.now());
            if (json) {
                ObjectNode node = Json.object();
                node.put("key", created.secret());
                node.put("id", created.key().id());
                node.put("user", created.key().user());
                node.put("admin", created.key().admin());
                created.key().customer().ifPresent(c -> node.put("customer", c));
                out.println(Json.write(node));
            } else {
                out.println(created.secret());
                PrintWriter err = spec.commandLine().getErr();
                err.println("(key " + created.key().id() + " for " + user + (admin ? ", admin" : "")
                        + created.key().customer().map(c -> ", customer " + c).orElse("")
                        + "; it is shown only this once)");
                err.flush();
            }
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "Lists the keys (never the keys themselves).")
    static final class ListKeys extends KeysSubcommand {
        @Override
        int call(RunStore store, PrintWriter out) {
            java.util.List<ApiKeys.ApiKey> keys = ApiKeys.open(store).list();
            if (json) {
                ArrayNode array = Json.mapper().createArrayNode();
                for (ApiKeys.ApiKey key : keys) {
                    array.addObject()
                            .put("id", key.id())
                            .put("user", key.user())
                            .put("admin", key.admin())
                            .put("customer", key.customer().orElse(null))
                            .put("createdAt", key.createdAt().toString())
                            .put(
                                    "revokedAt",
                                    key.revokedAt().map(Instant::toString).orElse(null));
                }
                out.println(Json.write(array));
            } else if (keys.isEmpty()) {
                out.println("no keys (make one with: weft keys create --user ID)");
            } else {
                out.printf("%-16s  %-16s  %-5s  %-24s  %s%n", "ID", "USER", "ADMIN", "CREATED", "REVOKED");
                for (ApiKeys.ApiKey key : keys) {
                    out.printf(
                            "%-16s  %-16s  %-5s  %-24s  %s%n",
                            key.id(),
                            key.user(),
                            key.admin() ? "yes" : "no",
                            key.createdAt(),
                            key.revokedAt().map(Instant::toString).orElse("-"));
                }
            }
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "revoke",
            mixinStandardHelpOptions = true,
            description = "Revokes a key: it lets nobody in from now.")
    static final class Revoke extends KeysSubcommand {
        @Parameters(paramLabel = "KEY_ID")
        String id;

        @Override
        int call(RunStore store, PrintWriter out) {
            boolean revoked = ApiKeys.open(store).revoke(id, Instant.now());
            if (json) {
                out.println(Json.write(Json.object().put("id", id).put("revoked", true)));
            } else {
                out.println(revoked ? "key " + id + " revoked" : "key " + id + " was already revoked");
            }
            return ExitCodes.OK;
        }
    }
}
