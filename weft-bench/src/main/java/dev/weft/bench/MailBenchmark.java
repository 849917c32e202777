package dev.weft.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.weft.core.Json;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.MailAccounts;
import dev.weft.memo.data.MailOperations;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.OperationContext;
import jakarta.mail.FetchProfile;
import jakarta.mail.Flags;
import jakarta.mail.Folder;
import jakarta.mail.Message;
import jakarta.mail.Session;
import jakarta.mail.Store;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.search.BodyTerm;
import jakarta.mail.search.FromStringTerm;
import jakarta.mail.search.HeaderTerm;
import jakarta.mail.search.OrTerm;
import jakarta.mail.search.SearchTerm;
import jakarta.mail.search.SubjectTerm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * {@code weft-bench mail [--messages N] [--searches N]}: Memo's email search against GreenMail's IMAP
 * server in this JVM, with a mailbox of N messages (10,000 by default). Each search through
 * {@code gmailOperations} connects, logs in, has the server search, and fetches the newest page (20);
 * the floor beside it is the same connection, search and page fetch with Jakarta Mail alone (no Memo,
 * no store). p50 and p99 per kind of search. Results go to stdout, progress to stderr.
 */
public final class MailBenchmark {
    private static final String USAGE =
            "usage: weft-bench mail [--messages N] [--searches N]   (defaults 10000, 200; N >= 10)";

    private static final Map<String, NumericOptions.Option> OPTIONS = new LinkedHashMap<>();

    static {
        OPTIONS.put("messages", new NumericOptions.Option(10_000, 10));
        OPTIONS.put("searches", new NumericOptions.Option(200, 10));
    }

    private MailBenchmark() {}

    public static void run(String[] args) {
        NumericOptions options = NumericOptions.parse(args, OPTIONS, USAGE);
        try {
            measure(options.intValue("messages"), options.intValue("searches"));
        } catch (Exception e) {
            throw new IllegalStateException("weft-bench mail: " + e.getMessage(), e);
        }
    }

    private static void measure(int messages, int searches) throws Exception {
        Instant now = Instant.parse("2026-11-24T08:00:00Z");
        GreenMail mail = new GreenMail(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));
        mail.start();
        Path dir = Files.createTempDirectory("weft-bench-mail");
        try (RunStore store = dev.weft.store.Stores.open("sqlite:" + dir.resolve("memo.db"))) {
            GreenMailUser user = mail.setUser("me@example.com", "me", "pw");
            System.err.println("weft-bench mail: " + messages + " messages into the mailbox...");
            var inbox = mail.getManagers().getImapHostManager().getInbox(user);
            Session session = Session.getInstance(new Properties());
            for (int i = 0; i < messages; i++) {
                MimeMessage message = new MimeMessage(session);
                message.setFrom(new InternetAddress(
                        i % 500 == 7 ? "Dana Levi <dana.levi@work.example>" : "list" + i % 50 + "@example.com"));
                message.setSubject(i % 500 == 7 ? "Quarterly report " + i : "Digest " + i);
                message.setText("body " + i);
                message.saveChanges();
                Flags flags = new Flags();
                if (i < messages - 30) {
                    flags.add(Flags.Flag.SEEN);
                }
                inbox.appendMessage(message, flags, Date.from(now.minusSeconds(messages - i)));
            }
            MemoData data = MemoData.open(store);
            data.mail().secrets().useKeyFile(dir.resolve("mail.key"));
            data.user("me", "en", ZoneId.of("Asia/Jerusalem"), now);
            data.mail()
                    .add(
                            "me",
                            "me@example.com",
                            "127.0.0.1",
                            mail.getImap().getPort(),
                            "127.0.0.1",
                            mail.getSmtp().getPort(),
                            "me",
                            MailAccounts.Security.NONE,
                            MailAccounts.Auth.PASSWORD,
                            "pw",
                            now);
            MailOperations operations = new MailOperations(data);
            OperationContext context = new OperationContext("me", ZoneId.of("Asia/Jerusalem"), now, "bench");
            Map<String, String> kinds = new LinkedHashMap<>();
            kinds.put("newest_page", "{\"operation\": \"search\"}");
            kinds.put("from_name", "{\"operation\": \"search\", \"from\": \"Dana\"}");
            kinds.put("subject_words", "{\"operation\": \"search\", \"query\": \"quarterly report\"}");
            kinds.put("unread", "{\"operation\": \"search\", \"unread\": true}");
            kinds.put("since", "{\"operation\": \"search\", \"since\": \"2026-11-24T07:00:00Z\"}");

            Map<String, SearchTerm> floors = new LinkedHashMap<>();
            floors.put("from_name", new OrTerm(new FromStringTerm("Dana"), new HeaderTerm("From", "Dana")));
            floors.put(
                    "subject_words", new OrTerm(new SubjectTerm("quarterly report"), new BodyTerm("quarterly report")));

            for (Map.Entry<String, String> kind : kinds.entrySet()) {
                ObjectNode args = (ObjectNode) Json.parse(kind.getValue(), "search");
                System.err.println("weft-bench mail: " + searches + " searches " + kind.getKey() + "...");
                int found = operations.apply(args, context).path("total").asInt();
                for (int i = 0; i < searches / 4; i++) {
                    operations.apply(args, context);
                }
                long[] nanos = new long[searches];
                for (int i = 0; i < searches; i++) {
                    long t0 = System.nanoTime();
                    operations.apply(args, context);
                    nanos[i] = System.nanoTime() - t0;
                }
                print("weft", kind.getKey(), messages, found, nanos);
                SearchTerm floor = floors.get(kind.getKey());
                if (floor != null || kind.getKey().equals("newest_page")) {
                    long[] bare = new long[searches];
                    for (int i = 0; i < searches; i++) {
                        long t0 = System.nanoTime();
                        bareSearch(mail.getImap().getPort(), floor);
                        bare[i] = System.nanoTime() - t0;
                    }
                    print("jakarta-mail", kind.getKey(), messages, -1, bare);
                }
            }
        } finally {
            mail.stop();
        }
    }

    /**
     * The same work with Jakarta Mail alone: connect, log in, select INBOX, have the server search
     * ({@code term}, or none), fetch the newest 20 envelopes, flags, UIDs and Message-IDs, log out.
     */
    private static void bareSearch(int port, SearchTerm term) throws Exception {
        Store imap = Session.getInstance(new Properties()).getStore("imap");
        imap.connect("127.0.0.1", port, "me", "pw");
        Folder folder = imap.getFolder("INBOX");
        folder.open(Folder.READ_ONLY);
        Message[] hits = term == null ? folder.getMessages() : folder.search(term);
        Message[] page = Arrays.copyOfRange(hits, Math.max(0, hits.length - 20), hits.length);
        FetchProfile profile = new FetchProfile();
        profile.add(FetchProfile.Item.ENVELOPE);
        profile.add(FetchProfile.Item.FLAGS);
        profile.add(jakarta.mail.UIDFolder.FetchProfileItem.UID);
        profile.add("Message-ID");
        folder.fetch(page, profile);
        folder.close(false);
        imap.close();
    }

    private static void print(String engine, String kind, int messages, int found, long[] nanos) {
        Arrays.sort(nanos);
        int n = nanos.length;
        System.out.printf(
                "engine=%s part=imap_search kind=%s mailbox=%d%s searches=%d p50_ms=%.2f p99_ms=%.2f%n",
                engine,
                kind,
                messages,
                found >= 0 ? " found=" + found : "",
                n,
                nanos[(int) Math.ceil(0.50 * n) - 1] / 1e6,
                nanos[(int) Math.ceil(0.99 * n) - 1] / 1e6);
    }
}
