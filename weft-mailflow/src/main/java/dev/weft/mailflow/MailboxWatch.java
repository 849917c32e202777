package dev.weft.mailflow;

import dev.weft.core.ErrorCode;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.mailflow.internal.Mailer;
import jakarta.mail.Flags;
import jakarta.mail.Folder;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Store;
import jakarta.mail.event.MessageCountAdapter;
import jakarta.mail.event.MessageCountEvent;
import jakarta.mail.search.FlagTerm;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * {@code weft mailflow watch}: follows a venue's INBOX over IMAP IDLE (Angus Mail) and takes in every
 * email that arrives, and at the start the unread ones that arrived while nobody watched; each goes
 * through {@link Mailflow#deliver}, so an email also delivered by a webhook still starts one run.
 * Messages are read without being marked read. A lost connection is made again after a pause. Closing
 * it stops the watch. Thread-safe.
 */
public final class MailboxWatch implements AutoCloseable {
    private static final Duration RECONNECT = Duration.ofSeconds(5);

    private final AtomicBoolean open = new AtomicBoolean(true);
    private final AtomicReference<Store> current = new AtomicReference<>();
    private final ExecutorService deliveries = Executors.newSingleThreadExecutor(
            Thread.ofVirtual().name("weft-mailflow-deliver").factory());
    private final Thread watcher;
    private volatile boolean listening;

    private MailboxWatch(Mailflow mailflow, Runner runner, Venue venue, Consumer<Processed> processed) {
        Venue.Mailbox box = venue.mailbox().orElseThrow();
        Mailer mailer = mailflow.mailer();
        this.watcher = Thread.ofPlatform()
                .daemon()
                .name("weft-mailflow-watch-" + venue.id())
                .start(() -> {
                    while (open.get()) {
                        try {
                            Store store = mailer.connect(box, mailflow.secrets().decrypt(box.sealedSecret()));
                            current.set(store);
                            Folder inbox = store.getFolder("INBOX");
                            inbox.open(Folder.READ_WRITE);
                            inbox.addMessageCountListener(new MessageCountAdapter() {
                                @Override
                                public void messagesAdded(MessageCountEvent event) {
                                    for (Message message : event.getMessages()) {
                                        submit(mailflow, runner, venue, message, processed);
                                    }
                                }
                            });
                            for (Message message : inbox.search(new FlagTerm(new Flags(Flags.Flag.SEEN), false))) {
                                submit(mailflow, runner, venue, message, processed);
                            }
                            listening = true;
                            while (open.get() && inbox.isOpen()) {
                                if (inbox instanceof org.eclipse.angus.mail.imap.IMAPFolder imap) {
                                    imap.idle();
                                } else {
                                    Thread.sleep(RECONNECT.toMillis());
                                    inbox.getMessageCount();
                                }
                            }
                        } catch (InterruptedException e) {
                            return;
                        } catch (MessagingException | RuntimeException e) {
                            if (!open.get()) {
                                return;
                            }
                            try {
                                Thread.sleep(RECONNECT.toMillis());
                            } catch (InterruptedException stop) {
                                return;
                            }
                        } finally {
                            listening = false;
                            Store store = current.getAndSet(null);
                            if (store != null) {
                                try {
                                    store.close();
                                } catch (MessagingException ignored) {
                                    // closing: nothing left to lose
                                }
                            }
                        }
                    }
                });
    }

    /**
     * Starts following {@code venueId}'s mailbox; {@code processed} hears of each email taken in.
     *
     * @throws WeftException {@code E_MAIL_NOT_CONFIGURED} for a venue with no mailbox
     */
    public static MailboxWatch start(Mailflow mailflow, Runner runner, String venueId, Consumer<Processed> processed) {
        Venue venue = mailflow.data().venue(venueId);
        if (venue.mailbox().isEmpty()) {
            throw new WeftException(
                    ErrorCode.E_MAIL_NOT_CONFIGURED,
                    "venue '" + venueId + "' has no mailbox to watch: add one with 'weft mailflow venue add --id "
                            + venueId + " --name … --address … --imap HOST:PORT --smtp HOST:PORT --login L'");
        }
        return new MailboxWatch(mailflow, runner, venue, processed);
    }

    /** Whether the watch is connected and waiting for mail (for tests that deliver after it listens). */
    public boolean listening() {
        return listening;
    }

    private void submit(Mailflow mailflow, Runner runner, Venue venue, Message message, Consumer<Processed> processed) {
        byte[] raw;
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            message.writeTo(bytes);
            raw = bytes.toByteArray();
        } catch (MessagingException | IOException e) {
            return; // one message that cannot be read: the others still are
        }
        deliveries.execute(() -> {
            try {
                processed.accept(mailflow.deliver(
                        runner,
                        new Mailflow.Delivery(
                                venue.id(), new Mailflow.Source.Raw(raw), "watch", Optional.empty(), false)));
            } catch (RuntimeException e) {
                // an email that cannot be taken in (malformed): it starts nothing; the watch goes on
            }
        });
    }

    @Override
    public void close() {
        open.set(false);
        Store store = current.get();
        if (store != null) {
            try {
                store.close();
            } catch (MessagingException ignored) {
                // closing ends the IDLE
            }
        }
        watcher.interrupt();
        deliveries.shutdown();
        try {
            deliveries.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
