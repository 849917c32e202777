package dev.weft.memo;

import com.icegreen.greenmail.store.FolderException;
import com.icegreen.greenmail.store.MailFolder;
import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.MailAccounts;
import dev.weft.memo.data.MailSendWorker;
import dev.weft.memo.data.MemoData;
import dev.weft.store.Stores;
import jakarta.mail.MessagingException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The mail tests' world: a real GreenMail (SMTP and IMAP) with dana@ and omer@, and a SQLite store under
 * a test's folder where Dana's account reads GreenMail's IMAP and sends through the SMTP port a test
 * chooses (GreenMail's own, or a fault-injecting proxy in front of it). Closing it stops GreenMail.
 */
final class MailFixture implements AutoCloseable {
    /** The send operation the tests make: one mail to Omer. */
    static final String SEND = "{\"operation\": \"send\", \"to\": [\"omer@example.com\"], \"subject\":"
            + " \"Contract\", \"body\": \"Signed copy attached.\"}";

    /** How a sender process killed the moment the server accepted its mail ended. */
    record Killed(int exitValue, String output) {}

    final GreenMail mail;
    final GreenMailUser dana;
    final GreenMailUser omer;
    final String url;
    final Path key;

    private MailFixture(Path dir) {
        mail = new GreenMail(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));
        mail.start();
        dana = mail.setUser("dana@example.com", "dana", "s3cret");
        omer = mail.setUser("omer@example.com", "omer", "omer-pw");
        url = "sqlite:" + dir.resolve("memo.db");
        key = dir.resolve("mail.key");
    }

    /** GreenMail started, its store under {@code dir} not yet made (see {@link #danaSendsThrough}). */
    static MailFixture start(Path dir) {
        return new MailFixture(dir);
    }

    /** GreenMail's SMTP port. */
    int smtpPort() {
        return mail.getSmtp().getPort();
    }

    /** Makes the store with Dana (English, UTC) and her account, which sends through {@code smtpPort}. */
    void danaSendsThrough(int smtpPort, Instant now) {
        try (RunStore store = Stores.open(url)) {
            addDana(data(store), smtpPort, ZoneOffset.UTC, now);
        }
    }

    /** Adds Dana (English, in {@code zone}) to {@code data}, her account reading GreenMail's IMAP and sending through {@code smtpPort}. */
    void addDana(MemoData data, int smtpPort, ZoneId zone, Instant now) {
        data.user("dana", "en", zone, now);
        data.mail()
                .add(
                        "dana",
                        "dana@example.com",
                        "127.0.0.1",
                        mail.getImap().getPort(),
                        "127.0.0.1",
                        smtpPort,
                        "dana",
                        MailAccounts.Security.NONE,
                        MailAccounts.Auth.PASSWORD,
                        "s3cret",
                        now);
    }

    /** Memo's data over {@code store}, its secrets under the fixture's key. */
    MemoData data(RunStore store) {
        MemoData data = MemoData.open(store);
        data.mail().secrets().useKeyFile(key);
        return data;
    }

    /** The subjects of the mails in {@code user}'s {@code folder}, oldest first (none for no such folder). */
    List<String> subjects(GreenMailUser user, String folder) throws FolderException {
        MailFolder box = folder.equals("INBOX")
                ? mail.getManagers().getImapHostManager().getInbox(user)
                : mail.getManagers().getImapHostManager().getFolder(user, folder);
        if (box == null) {
            return List.of();
        }
        return box.getMessages().stream()
                .map(m -> {
                    try {
                        return m.getMimeMessage().getSubject();
                    } catch (MessagingException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .toList();
    }

    /**
     * {@link #SEND} under idempotency key {@code idempotencyKey}, by a process of its own ({@link
     * MailSendWorker}) that kills itself the moment the SMTP server accepted the mail.
     */
    Killed sendAndDieOnAcceptance(String idempotencyKey) throws IOException, InterruptedException {
        Process worker = new ProcessBuilder(
                        ProcessHandle.current().info().command().orElse("java"),
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        MailSendWorker.class.getName(),
                        url,
                        key.toString(),
                        idempotencyKey,
                        SEND)
                .redirectErrorStream(true)
                .start();
        worker.getOutputStream().close();
        String out = new String(worker.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!worker.waitFor(60, TimeUnit.SECONDS)) {
            worker.destroyForcibly();
            throw new IllegalStateException("the sender did not end within a minute: " + out);
        }
        return new Killed(worker.exitValue(), out);
    }

    @Override
    public void close() {
        mail.stop();
    }
}
