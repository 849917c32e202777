package dev.weft.memo.data;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Properties;

/**
 * The process {@code MailSentOnceIT} kills: sends one mail as step {@code KEY} of dana's, and halts the
 * JVM (no shutdown hooks, no finally blocks: as a power cut would) the moment the SMTP server accepted
 * it, before Memo records anything after. Prints "accepted" there. Arguments: the database URL, the
 * mail key file, the step's idempotency key, the send's arguments as JSON.
 */
public final class MailSendWorker {
    private MailSendWorker() {}

    public static void main(String[] args) {
        RunStore store = Stores.open(args[0]);
        MemoData data = MemoData.open(store);
        data.mail().secrets().useKeyFile(Path.of(args[1]));
        MailOperations mail = new MailOperations(data, new Properties(), () -> {
            System.out.println("accepted");
            System.out.flush();
            Runtime.getRuntime().halt(137);
        });
        mail.apply(
                (ObjectNode) Json.parse(args[3], "the send"),
                new OperationContext("dana", ZoneOffset.UTC, Instant.now(), args[2]));
        System.out.println("returned");
    }
}
