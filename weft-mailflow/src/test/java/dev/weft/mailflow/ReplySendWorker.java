package dev.weft.mailflow;

import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import java.nio.file.Path;

/**
 * The process {@code ReplySendFaultIT} kills: takes in one email for venue {@code olive} and halts the
 * JVM (no shutdown hooks, no finally blocks: as a power cut would) the moment the SMTP server accepted
 * the reply — before its copy is filed in Sent and before it is recorded sent. Prints "accepted" there.
 * Arguments: the database URL, the mail key file, the email fixture's name.
 */
public final class ReplySendWorker {
    private ReplySendWorker() {}

    public static void main(String[] args) {
        RunStore store = Stores.open(args[0]);
        Mailflow mailflow = Mailflow.builder()
                .store(store)
                .keyFile(Path.of(args[1]))
                .afterSmtp(() -> {
                    System.out.println("accepted");
                    System.out.flush();
                    Runtime.getRuntime().halt(137);
                })
                .build();
        mailflow.deliver(Runner.builder().store(store).build(), Fixtures.raw("olive", args[2]));
        System.out.println("returned");
    }
}
