package dev.weft.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.spi.RunStore;
import dev.weft.store.SecretKeyException;
import dev.weft.store.SecretKeySource;
import dev.weft.store.SecretRotation;
import dev.weft.store.spi.SealedColumns;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code weft secrets …}: the stored secrets and the deployment's key that seals them. */
@Command(
        name = "secrets",
        mixinStandardHelpOptions = true,
        description = "The secrets Weft keeps sealed in the store (mail and calendar passwords, tokens).",
        subcommands = {SecretsCommand.Rotate.class})
final class SecretsCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(
            name = "rotate",
            mixinStandardHelpOptions = true,
            description = "Seals every stored secret again under this process's key (WEFT_SECRET_KEY,"
                    + " WEFT_SECRET_KEY_FILE, else $WEFT_HOME/mail.key), opening it with the old key in"
                    + " --from-file; all or nothing. Stop the servers and workers first.")
    static final class Rotate extends StoreCommand {
        @Option(
                names = "--from-file",
                paramLabel = "OLD",
                required = true,
                description = "The file of the key the secrets are sealed with now (base64 of 32 bytes).")
        Path from;

        @Option(names = "--json", description = "Prints JSON.")
        boolean json;

        @Override
        boolean json() {
            return json;
        }

        @Override
        int call(RunStore store, PrintWriter out) {
            SecretKeySource old = oldKey(from);
            SecretKeySource now = SecretKeySource.fromEnvironment(Env.get()::get, Storage.mailKey());
            SecretRotation.Report report =
                    SecretRotation.rotate(store, old, now, SealedColumns.all(SecretsCommand.class.getClassLoader()));
            if (json) {
                ObjectNode node = Json.object();
                node.put("resealed", report.total());
                node.set("byColumn", Json.mapper().valueToTree(report.resealed()));
                node.set("alreadyUnderNewKey", Json.mapper().valueToTree(report.alreadyNew()));
                node.put("key", now.describe());
                out.println(Json.write(node));
            } else {
                out.println("sealed " + report.total() + " secret" + (report.total() == 1 ? "" : "s")
                        + " again under " + now.describe() + " " + report.resealed()
                        + (report.alreadyNew().values().stream().anyMatch(n -> n > 0)
                                ? "; already under it: " + report.alreadyNew()
                                : ""));
            }
            return ExitCodes.OK;
        }

        private static SecretKeySource oldKey(Path file) {
            String origin = "the old key file " + file;
            if (!Files.isRegularFile(file)) {
                throw new SecretKeyException(origin + " does not exist");
            }
            try {
                return new SecretKeySource.Given(
                        origin, SecretKeySource.decode(Files.readString(file, StandardCharsets.US_ASCII), origin));
            } catch (IOException e) {
                throw new SecretKeyException("cannot read " + origin + ": " + e.getMessage());
            }
        }
    }
}
