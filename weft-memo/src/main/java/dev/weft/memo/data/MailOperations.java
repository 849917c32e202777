package dev.weft.memo.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.OutcomeUnknownException;
import dev.weft.core.TransientException;
import dev.weft.core.WeftException;
import dev.weft.mail.Submission;
import dev.weft.memo.data.MailAccounts.Account;
import jakarta.mail.Address;
import jakarta.mail.AuthenticationFailedException;
import jakarta.mail.FetchProfile;
import jakarta.mail.Flags;
import jakarta.mail.Folder;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.Session;
import jakarta.mail.Store;
import jakarta.mail.Transport;
import jakarta.mail.UIDFolder;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.search.AndTerm;
import jakarta.mail.search.BodyTerm;
import jakarta.mail.search.ComparisonTerm;
import jakarta.mail.search.FlagTerm;
import jakarta.mail.search.FromStringTerm;
import jakarta.mail.search.HeaderTerm;
import jakarta.mail.search.MessageIDTerm;
import jakarta.mail.search.OrTerm;
import jakarta.mail.search.ReceivedDateTerm;
import jakarta.mail.search.RecipientStringTerm;
import jakarta.mail.search.SearchTerm;
import jakarta.mail.search.SubjectTerm;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;

/**
 * Seed 002's {@code gmailOperations} on any IMAP and SMTP account (Angus Mail): searching on the
 * server (only the page asked for is fetched), reading, composing, sending, replying, forwarding,
 * labels as IMAP keywords, archive (a move to {@code Archive}), delete (a move to {@code Trash}),
 * read and star flags, and drafts in {@code Drafts}. An email's id is its {@code Message-ID}.
 *
 * <p>A send is once per call: its {@code Message-ID} comes from the call's idempotency key; the intent
 * to send it is recorded before the SMTP server is asked, and the server is asked for a copy for the
 * sender too, which it files in the sender's {@code INBOX} the moment it accepts the mail. A call made
 * again (the step run again after a crash) finds the message in the user's sent record, in {@code
 * Sent}, or as that copy, and sends nothing; where it finds no trace of an attempt that may have gone
 * out (or the server took the mail and never answered), it throws {@code E_OUTCOME_UNKNOWN} and the
 * step waits for a person: never a second send on its own. What was sent ends in {@code Sent}: the sender's copy
 * moved there, or a copy made here (Gmail files its own). See {@code docs/delivery.md}. Thread-safe;
 * each call opens its own connection.
 */
public final class MailOperations {
    /** Every operation, as seed 002 names them. */
    public static final List<String> OPERATIONS = List.of(
            "search",
            "read",
            "compose",
            "send",
            "reply",
            "forward",
            "label",
            "archive",
            "delete",
            "markRead",
            "markUnread",
            "star",
            "unstar",
            "createDraft",
            "sendDraft",
            "deleteDraft",
            "listDrafts");

    /** The operations that send mail or remove it, which a person approves first. */
    public static final Set<String> HIGH_RISK = Set.of("send", "reply", "forward", "sendDraft", "delete");

    static final int DEFAULT_RESULTS = 20;
    static final int MAX_RESULTS = 100;

    /** How many of the newest messages a search by a non-ASCII sender name reads the senders of. */
    static final int SCANNED = 500;

    private static final int TIMEOUT_MILLIS = 15_000;

    private final MailAccounts accounts;
    private final Properties extra;
    private final Runnable accepted;

    public MailOperations(MemoData data) {
        this(data, new Properties());
    }

    /** With {@code extra} mail session properties (a test trusting its server's certificate). */
    public MailOperations(MemoData data, Properties extra) {
        this(data, extra, () -> {});
    }

    /**
     * With {@code accepted} called the moment an SMTP server accepted a message, before Memo records
     * it: where a test kills the process to show that the step run again does not send twice.
     */
    MailOperations(MemoData data, Properties extra, Runnable accepted) {
        this.accounts = data.mail();
        this.extra = extra;
        this.accepted = accepted;
    }

    /**
     * Performs {@code args.operation} on {@code context}'s user's mailbox.
     *
     * @throws WeftException {@code E_MAIL_NOT_CONFIGURED} for a user with no account, {@code
     *     E_MAIL_UNAVAILABLE} when a server cannot be reached (transient) or refuses the login, {@code
     *     E_NOT_FOUND} for an email id the mailbox does not have, {@code E_ARGS_INVALID} for arguments
     *     the operation cannot use
     */
    public ObjectNode apply(ObjectNode args, OperationContext context) {
        String operation = args.path("operation").asText("");
        if (!OPERATIONS.contains(operation)) {
            throw invalid("operation '" + operation + "' is not one of " + OPERATIONS);
        }
        Account account = accounts.require(context.user());
        if (operation.equals("compose")) {
            ObjectNode out = Json.object();
            out.set("preview", preview(account, args));
            return out;
        }
        try (Mailbox box = open(account)) {
            return switch (operation) {
                case "search" -> search(box, args, context.zone(), folderOf(args, "INBOX"));
                case "listDrafts" -> search(box, Json.object(), context.zone(), "Drafts");
                case "read" -> read(box, args, context.zone());
                case "send" -> send(box, account, args, context, null);
                case "reply" -> send(box, account, args, context, find(box, "INBOX", emailId(args)));
                case "forward" -> forward(box, account, args, context);
                case "createDraft" -> draft(box, account, args, context);
                case "sendDraft" -> sendDraft(box, account, args, context);
                case "deleteDraft" -> move(box, args, context.zone(), "Drafts", null, "deleted");
                case "archive" -> move(box, args, context.zone(), "INBOX", "Archive", "archived");
                case "delete" -> move(box, args, context.zone(), "INBOX", "Trash", "deleted");
                default -> flag(box, operation, args, context.zone());
            };
        } catch (MessagingException e) {
            throw unavailable(account, "IMAP", e);
        }
    }

    /**
     * Connects to both of {@code user}'s servers and logs in, saying what failed.
     *
     * @return one line per server: "IMAP host:port: ok", or what went wrong there
     */
    public List<String> check(String user) {
        Account account = accounts.require(user);
        List<String> lines = new ArrayList<>();
        try (Mailbox box = open(account)) {
            lines.add("IMAP " + account.imapHost() + ":" + account.imapPort() + ": ok ("
                    + box.folder("INBOX").getMessageCount() + " messages in INBOX)");
        } catch (WeftException e) {
            lines.add(e.getMessage());
        } catch (MessagingException e) {
            lines.add(unavailable(account, "IMAP", e).getMessage());
        }
        Session session = session(account);
        try (Transport transport = session.getTransport(smtpProtocol(account))) {
            logIn(transport, account.smtpHost(), account.smtpPort(), account);
            lines.add("SMTP " + account.smtpHost() + ":" + account.smtpPort() + ": ok");
        } catch (MessagingException e) {
            lines.add(unavailable(account, "SMTP", e).getMessage());
        }
        return lines;
    }

    /**
     * Watches {@code user}'s INBOX and calls {@code arrived} with each new email's summary (its id,
     * sender, subject, date) as it comes: IMAP IDLE where the server has it, else a look every 30
     * seconds; a lost connection is made again after 30 seconds. Nothing is read or marked.
     *
     * @return closing it stops the watch
     * @throws WeftException {@code E_MAIL_NOT_CONFIGURED} for a user with no account
     */
    public AutoCloseable watch(String user, ZoneId zone, java.util.function.Consumer<ObjectNode> arrived) {
        Account account = accounts.require(user);
        java.util.concurrent.atomic.AtomicBoolean open = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicReference<Store> current =
                new java.util.concurrent.atomic.AtomicReference<>();
        Thread watcher = Thread.ofPlatform()
                .daemon()
                .name("weft-mail-watch-" + user)
                .start(() -> {
                    while (open.get()) {
                        try {
                            Store store = session(account).getStore(imapProtocol(account));
                            current.set(store);
                            logIn(store, account.imapHost(), account.imapPort(), account);
                            Folder inbox = store.getFolder("INBOX");
                            inbox.open(Folder.READ_ONLY);
                            inbox.addMessageCountListener(new jakarta.mail.event.MessageCountAdapter() {
                                @Override
                                public void messagesAdded(jakarta.mail.event.MessageCountEvent event) {
                                    for (Message message : event.getMessages()) {
                                        try {
                                            arrived.accept(summary(message, zone, "INBOX"));
                                        } catch (MessagingException | RuntimeException e) {
                                            // one message that cannot be read: the others still are
                                        }
                                    }
                                }
                            });
                            while (open.get() && inbox.isOpen()) {
                                if (inbox instanceof org.eclipse.angus.mail.imap.IMAPFolder imap) {
                                    imap.idle();
                                } else {
                                    Thread.sleep(30_000);
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
                                Thread.sleep(30_000);
                            } catch (InterruptedException stop) {
                                return;
                            }
                        } finally {
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
        return () -> {
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
        };
    }

    // ---- reading

    private ObjectNode search(Mailbox box, ObjectNode args, ZoneId zone, String folderName) throws MessagingException {
        int limit = Math.min(
                MAX_RESULTS,
                Math.max(1, args.path("maxResults").asInt(args.path("limit").asInt(DEFAULT_RESULTS))));
        Folder folder = box.folder(folderName);
        // A name in another script (דנה) is searched for among the decoded senders of the newest
        // messages the rest of the search finds: servers differ on searching encoded headers.
        java.util.Optional<String> localName = text(args, "from").filter(MailOperations::nonAscii);
        ObjectNode serverArgs = args;
        if (localName.isPresent()) {
            serverArgs = args.deepCopy();
            serverArgs.remove("from");
        }
        SearchTerm term = term(serverArgs, zone);
        // The server searches; only the newest page of what it found is fetched.
        Message[] found = term == null ? folder.getMessages() : folder.search(term);
        if (localName.isPresent()) {
            Message[] newest = java.util.Arrays.copyOfRange(found, Math.max(0, found.length - SCANNED), found.length);
            FetchProfile envelopes = new FetchProfile();
            envelopes.add(FetchProfile.Item.ENVELOPE);
            folder.fetch(newest, envelopes);
            String wanted = localName.get().toLowerCase(Locale.ROOT);
            List<Message> matching = new ArrayList<>();
            for (Message message : newest) {
                Address[] senders = message.getFrom();
                if (senders != null
                        && java.util.Arrays.stream(senders)
                                .anyMatch(a -> ((InternetAddress) a)
                                        .toUnicodeString()
                                        .toLowerCase(Locale.ROOT)
                                        .contains(wanted))) {
                    matching.add(message);
                }
            }
            found = matching.toArray(Message[]::new);
        }
        int from = Math.max(0, found.length - limit);
        Message[] page = java.util.Arrays.copyOfRange(found, from, found.length);
        FetchProfile profile = new FetchProfile();
        profile.add(FetchProfile.Item.ENVELOPE);
        profile.add(FetchProfile.Item.FLAGS);
        profile.add(UIDFolder.FetchProfileItem.UID);
        profile.add("Message-ID");
        folder.fetch(page, profile);
        ObjectNode out = Json.object();
        ArrayNode emails = out.putArray("emails");
        for (int i = page.length - 1; i >= 0; i--) {
            emails.add(summary(page[i], zone, folderName));
        }
        out.put("total", found.length);
        return out;
    }

    private static boolean nonAscii(String text) {
        return text.chars().anyMatch(c -> c > 127);
    }

    private static SearchTerm term(ObjectNode args, ZoneId zone) {
        List<SearchTerm> terms = new ArrayList<>();
        // FROM and TO match a part of the address or the name on most servers; the header term too on
        // those (GreenMail) that match FROM and TO only to a whole address.
        text(args, "from").ifPresent(v -> terms.add(new OrTerm(new FromStringTerm(v), new HeaderTerm("From", v))));
        text(args, "to")
                .ifPresent(v -> terms.add(
                        new OrTerm(new RecipientStringTerm(Message.RecipientType.TO, v), new HeaderTerm("To", v))));
        text(args, "subject").ifPresent(v -> terms.add(new SubjectTerm(v)));
        text(args, "query").ifPresent(v -> terms.add(new OrTerm(new SubjectTerm(v), new BodyTerm(v))));
        text(args, "since")
                .ifPresent(v -> terms.add(new ReceivedDateTerm(
                        ComparisonTerm.GE,
                        Date.from(DueDates.parse("since", v, zone).at()))));
        text(args, "before")
                .ifPresent(v -> terms.add(new ReceivedDateTerm(
                        ComparisonTerm.LT,
                        Date.from(DueDates.parse("before", v, zone).at()))));
        if (args.path("unread").asBoolean(false)) {
            terms.add(new FlagTerm(new Flags(Flags.Flag.SEEN), false));
        }
        if (terms.isEmpty()) {
            return null;
        }
        return terms.size() == 1 ? terms.get(0) : new AndTerm(terms.toArray(SearchTerm[]::new));
    }

    private ObjectNode read(Mailbox box, ObjectNode args, ZoneId zone) throws MessagingException {
        Message message = find(box, folderOf(args, "INBOX"), emailId(args));
        ObjectNode email = summary(message, zone, message.getFolder().getName());
        email.put("body", bodyOf(message));
        message.setFlag(Flags.Flag.SEEN, true);
        email.put("unread", false);
        ObjectNode out = Json.object();
        out.set("email", email);
        return out;
    }

    // ---- sending

    private ObjectNode preview(Account account, ObjectNode args) {
        ObjectNode preview = Json.object();
        preview.put("from", account.address());
        preview.set("to", recipients(args, "to", true));
        preview.set("cc", recipients(args, "cc", false));
        preview.put("subject", args.path("subject").asText(""));
        preview.put("body", args.path("body").asText(""));
        return preview;
    }

    private ObjectNode send(Mailbox box, Account account, ObjectNode args, OperationContext context, Message replyTo)
            throws MessagingException {
        MimeMessage message;
        if (replyTo != null) {
            message = (MimeMessage) replyTo.reply(false);
            message.setFrom(new InternetAddress(account.address()));
            message.setText(requireText(args, "body"), "UTF-8");
        } else {
            message = new MimeMessage(session(account));
            message.setFrom(new InternetAddress(account.address()));
            message.setRecipients(Message.RecipientType.TO, addresses(recipients(args, "to", true)));
            if (args.has("cc")) {
                message.setRecipients(Message.RecipientType.CC, addresses(recipients(args, "cc", false)));
            }
            if (args.has("bcc")) {
                message.setRecipients(Message.RecipientType.BCC, addresses(recipients(args, "bcc", false)));
            }
            message.setSubject(args.path("subject").asText(""), "UTF-8");
            message.setText(requireText(args, "body"), "UTF-8");
        }
        return deliver(box, account, message, context);
    }

    private ObjectNode forward(Mailbox box, Account account, ObjectNode args, OperationContext context)
            throws MessagingException {
        Message original = find(box, folderOf(args, "INBOX"), emailId(args));
        MimeMessage message = new MimeMessage(session(account));
        message.setFrom(new InternetAddress(account.address()));
        message.setRecipients(Message.RecipientType.TO, addresses(recipients(args, "to", true)));
        String subject = original.getSubject() == null ? "" : original.getSubject();
        message.setSubject(subject.regionMatches(true, 0, "Fwd:", 0, 4) ? subject : "Fwd: " + subject, "UTF-8");
        String note = args.path("body").asText("");
        message.setText(
                (note.isEmpty() ? "" : note + "\n\n") + "---------- Forwarded message ----------\nFrom: "
                        + InternetAddress.toString(original.getFrom()) + "\nSubject: " + subject + "\n\n"
                        + bodyOf(original),
                "UTF-8");
        return deliver(box, account, message, context);
    }

    private ObjectNode draft(Mailbox box, Account account, ObjectNode args, OperationContext context)
            throws MessagingException {
        MimeMessage message = new MimeMessage(session(account));
        message.setFrom(new InternetAddress(account.address()));
        message.setRecipients(Message.RecipientType.TO, addresses(recipients(args, "to", false)));
        message.setSubject(args.path("subject").asText(""), "UTF-8");
        message.setText(args.path("body").asText(""), "UTF-8");
        String id = messageId(account, context.user(), context.idempotencyKey());
        message.saveChanges();
        message.setHeader("Message-ID", id);
        Folder drafts = box.writable("Drafts");
        if (drafts.search(new MessageIDTerm(id)).length == 0) {
            message.setFlag(Flags.Flag.DRAFT, true);
            drafts.appendMessages(new Message[] {message});
        }
        ObjectNode out = Json.object();
        out.set("draft", summary(find(box, "Drafts", id), context.zone(), "Drafts"));
        return out;
    }

    private ObjectNode sendDraft(Mailbox box, Account account, ObjectNode args, OperationContext context)
            throws MessagingException {
        Message draft = find(box, "Drafts", text(args, "draftId").orElseGet(() -> emailId(args)));
        MimeMessage message = new MimeMessage((MimeMessage) draft);
        message.setFlag(Flags.Flag.DRAFT, false);
        ObjectNode out = deliver(box, account, message, context);
        draft.setFlag(Flags.Flag.DELETED, true);
        draft.getFolder().expunge();
        return out;
    }

    /**
     * Sends {@code message} once for the call, with the call's Message-ID. The intent is recorded before
     * the SMTP server is given the mail, and consulted by a call made again (the step run again after a
     * crash): it looks for the mail where it would be — the {@code Sent} folder, and the sender's own
     * copy in {@code INBOX} — and, finding no trace of an attempt that may have gone out, does not send
     * on its own: it throws {@code E_OUTCOME_UNKNOWN}, and sends again only once a person said so ({@link
     * OperationContext#repeatApproved()}). A server that took the mail's content and never answered is
     * the same unknown, never retried blind.
     */
    private ObjectNode deliver(Mailbox box, Account account, MimeMessage message, OperationContext context)
            throws MessagingException {
        String id = messageId(account, context.user(), context.idempotencyKey());
        message.saveChanges();
        message.setHeader("Message-ID", id);
        Folder sent = box.writable("Sent");
        MailAccounts.SendState state = accounts.sendState(context.user(), id);
        boolean already = state == MailAccounts.SendState.SENT || wentAlready(box, account, sent, id);
        if (already && state != MailAccounts.SendState.SENT) {
            accounts.markSent(context.user(), id, context.now());
        }
        if (!already) {
            if (state == MailAccounts.SendState.INTENDED && !context.repeatApproved()) {
                throw new OutcomeUnknownException("the mail '" + message.getSubject() + "' (" + id + ") to "
                        + InternetAddress.toString(message.getAllRecipients())
                        + " may have been sent: an earlier attempt was cut after Memo meant to send it, and no"
                        + " copy of it is in Sent or INBOX");
            }
            boolean ownCopy = ownCopy(account, message);
            List<Address> envelope = new ArrayList<>(List.of(message.getAllRecipients()));
            if (ownCopy) {
                // The server files a copy for the sender the moment it accepts the mail: the trace a
                // call made again after a crash finds it by, whatever happened to this process next.
                envelope.add(new InternetAddress(account.address()));
            }
            Submission submission = new Submission(message);
            Session session = session(account);
            boolean taken = false;
            try (Transport transport = session.getTransport(smtpProtocol(account))) {
                logIn(transport, account.smtpHost(), account.smtpPort(), account);
                // Recorded once the server is reached and has taken the login, just before it is given the
                // mail: a crash while connecting leaves no intent to ask a person about.
                accounts.intendToSend(context.user(), id, context.now());
                transport.sendMessage(submission, envelope.toArray(Address[]::new));
                taken = true;
            } catch (MessagingException e) {
                if (taken) {
                    // Only the goodbye failed: the server had answered that it took the mail.
                } else if (!submission.written()) {
                    // Refused or unreachable before it was given the mail: nothing went out.
                    accounts.forgetIntent(context.user(), id);
                    throw unavailable(account, "SMTP", e);
                } else {
                    // The server has the mail and its answer was lost: it went if its trace is there.
                    if (!wentAlready(box, account, sent, id)) {
                        throw new OutcomeUnknownException(
                                "the mail '" + message.getSubject() + "' (" + id + ") may have been sent: SMTP "
                                        + account.smtpHost() + ":" + account.smtpPort()
                                        + " took it and did not answer (" + String.valueOf(e.getMessage()) + ")",
                                e);
                    }
                    accounts.markSent(context.user(), id, context.now());
                    return sentResult(message, id, false);
                }
            }
            accepted.run();
            accounts.markSent(context.user(), id, context.now());
            if (!account.imapHost().endsWith("gmail.com")) {
                // Gmail files what it sends in Sent itself; other servers need the copy.
                fileInSent(box, sent, message, id, ownCopy);
            }
        }
        return sentResult(message, id, already);
    }

    private static ObjectNode sentResult(MimeMessage message, String id, boolean replayed) throws MessagingException {
        ObjectNode out = Json.object();
        ObjectNode sentNode = out.putObject("sent");
        sentNode.put("id", id);
        ArrayNode to = sentNode.putArray("to");
        for (Address a : message.getRecipients(Message.RecipientType.TO)) {
            to.add(((InternetAddress) a).getAddress());
        }
        sentNode.put("subject", message.getSubject() == null ? "" : message.getSubject());
        out.put("replayed", replayed);
        return out;
    }

    /**
     * Whether the server took mail {@code id} already: its copy is in {@code Sent} (where Gmail files
     * what it sends, and Memo its copies), or the sender's own copy is in {@code INBOX} (then it is
     * filed in {@code Sent} now).
     */
    private boolean wentAlready(Mailbox box, Account account, Folder sent, String id) throws MessagingException {
        if (sent.search(new MessageIDTerm(id)).length > 0) {
            return true;
        }
        Folder inbox = box.folder("INBOX");
        Message[] own = inbox.search(new MessageIDTerm(id));
        if (own.length == 0) {
            return false;
        }
        if (ownCopy(account, (MimeMessage) own[0])) {
            moveToSent(inbox, sent, own);
        }
        return true;
    }

    /**
     * Whether the server is asked for a copy for the sender too: not on Gmail (it files what it sends
     * itself), nor when the sender is among the recipients (their copy arrives as mail).
     */
    private static boolean ownCopy(Account account, MimeMessage message) throws MessagingException {
        if (account.imapHost().endsWith("gmail.com")) {
            return false;
        }
        for (Address a : message.getAllRecipients()) {
            if (a instanceof InternetAddress ia && ia.getAddress().equalsIgnoreCase(account.address())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Files the sent {@code message} in {@code Sent}: the sender's own copy, moved from {@code INBOX}
     * once the server put it there (it may take a moment), or else a copy made here.
     */
    private void fileInSent(Mailbox box, Folder sent, MimeMessage message, String id, boolean ownCopy)
            throws MessagingException {
        if (ownCopy) {
            Folder inbox = box.folder("INBOX");
            for (long waitMs : new long[] {0, 50, 200, 500}) {
                if (waitMs > 0) {
                    try {
                        Thread.sleep(waitMs);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
                Message[] own = inbox.search(new MessageIDTerm(id));
                if (own.length > 0) {
                    moveToSent(inbox, sent, own);
                    return;
                }
            }
        }
        message.setFlag(Flags.Flag.SEEN, true);
        sent.appendMessages(new Message[] {message});
    }

    private static void moveToSent(Folder inbox, Folder sent, Message[] own) throws MessagingException {
        for (Message m : own) {
            m.setFlag(Flags.Flag.SEEN, true);
        }
        inbox.copyMessages(own, sent);
        for (Message m : own) {
            m.setFlag(Flags.Flag.DELETED, true);
        }
        inbox.expunge();
    }

    // ---- changing

    private ObjectNode move(Mailbox box, ObjectNode args, ZoneId zone, String from, String to, String field)
            throws MessagingException {
        Message message = find(box, folderOf(args, from), text(args, "draftId").orElseGet(() -> emailId(args)));
        ObjectNode before = summary(message, zone, message.getFolder().getName());
        if (to != null) {
            Folder target = box.writable(to);
            message.getFolder().copyMessages(new Message[] {message}, target);
        }
        message.setFlag(Flags.Flag.DELETED, true);
        message.getFolder().expunge();
        ObjectNode out = Json.object();
        out.set(field, before);
        if (to != null) {
            out.put("folder", to);
        }
        return out;
    }

    private ObjectNode flag(Mailbox box, String operation, ObjectNode args, ZoneId zone) throws MessagingException {
        Message message = find(box, folderOf(args, "INBOX"), emailId(args));
        switch (operation) {
            case "markRead" -> message.setFlag(Flags.Flag.SEEN, true);
            case "markUnread" -> message.setFlag(Flags.Flag.SEEN, false);
            case "star" -> message.setFlag(Flags.Flag.FLAGGED, true);
            case "unstar" -> message.setFlag(Flags.Flag.FLAGGED, false);
            case "label" -> {
                JsonNode labels = args.path("labels");
                if (!labels.isArray() || labels.isEmpty()) {
                    throw invalid("label needs 'labels', a non-empty array of label names");
                }
                Flags keywords = new Flags();
                labels.forEach(l -> keywords.add(l.asText().replaceAll("[^\\p{L}\\p{N}_.-]", "_")));
                message.setFlags(keywords, true);
            }
            default -> throw invalid("operation '" + operation + "' is not one of " + OPERATIONS);
        }
        ObjectNode out = Json.object();
        out.set("email", summary(message, zone, message.getFolder().getName()));
        return out;
    }

    // ---- the mailbox

    /** One connection to a user's IMAP server, its folders opened as needed and closed with it. */
    private final class Mailbox implements AutoCloseable {
        private final Account account;
        private final Store store;
        private final java.util.Map<String, Folder> open = new java.util.HashMap<>();

        Mailbox(Account account, Store store) {
            this.account = account;
            this.store = store;
        }

        Folder folder(String name) throws MessagingException {
            Folder folder = open.get(name);
            if (folder == null) {
                folder = store.getFolder(name);
                if (!folder.exists()) {
                    if (name.equals("INBOX")) {
                        throw new WeftException(
                                ErrorCode.E_MAIL_UNAVAILABLE, "the mailbox of " + account.login() + " has no INBOX");
                    }
                    folder.create(Folder.HOLDS_MESSAGES);
                }
                folder.open(Folder.READ_WRITE);
                open.put(name, folder);
            }
            return folder;
        }

        Folder writable(String name) throws MessagingException {
            return folder(name);
        }

        @Override
        public void close() {
            for (Folder folder : open.values()) {
                try {
                    if (folder.isOpen()) {
                        folder.close(true);
                    }
                } catch (MessagingException ignored) {
                    // closing: nothing left to lose
                }
            }
            try {
                store.close();
            } catch (MessagingException ignored) {
                // closing: nothing left to lose
            }
        }
    }

    /**
     * Logs {@code service} (an IMAP store or an SMTP transport) in to {@code host}:{@code port} as {@code
     * account}. A mailbox signed in with OAuth whose kept token the server refuses — though the clock
     * still calls it good: the provider ended it early, or the server's clock runs ahead — is logged in
     * once more with a token refreshed now, as a CalDAV sync is; a second refusal is the server's answer.
     *
     * @throws dev.weft.oauth.GrantRevokedException {@code E_AUTH_REVOKED} when the refresh finds the sign-in revoked
     */
    private void logIn(jakarta.mail.Service service, String host, int port, Account account) throws MessagingException {
        try {
            service.connect(host, port, account.login(), accounts.secret(account));
        } catch (AuthenticationFailedException refused) {
            if (!accounts.signedIn(account)) {
                throw refused;
            }
            service.connect(host, port, account.login(), accounts.refreshedSecret(account));
        }
    }

    private Mailbox open(Account account) {
        Session session = session(account);
        try {
            Store store = session.getStore(imapProtocol(account));
            logIn(store, account.imapHost(), account.imapPort(), account);
            return new Mailbox(account, store);
        } catch (MessagingException e) {
            throw unavailable(account, "IMAP", e);
        }
    }

    private Message find(Mailbox box, String folderName, String id) throws MessagingException {
        Folder folder = box.folder(folderName);
        Message[] found = folder.search(new MessageIDTerm(id));
        if (found.length == 0 && !folderName.equals("INBOX")) {
            found = box.folder("INBOX").search(new MessageIDTerm(id));
        }
        if (found.length == 0) {
            throw new NotFoundException("no email '" + id + "' in " + folderName);
        }
        return found[found.length - 1];
    }

    private Session session(Account account) {
        Properties props = new Properties();
        String imap = imapProtocol(account);
        String smtp = smtpProtocol(account);
        for (String protocol : List.of(imap, smtp)) {
            props.put("mail." + protocol + ".connectiontimeout", String.valueOf(TIMEOUT_MILLIS));
            props.put("mail." + protocol + ".timeout", String.valueOf(TIMEOUT_MILLIS));
            props.put("mail." + protocol + ".writetimeout", String.valueOf(TIMEOUT_MILLIS));
        }
        props.put("mail." + smtp + ".auth", "true");
        if (account.security() == MailAccounts.Security.STARTTLS) {
            props.put("mail.imap.starttls.enable", "true");
            props.put("mail.imap.starttls.required", "true");
            props.put("mail.smtp.starttls.enable", "true");
            props.put("mail.smtp.starttls.required", "true");
        }
        if (account.auth() == MailAccounts.Auth.OAUTH2) {
            props.put("mail." + imap + ".auth.mechanisms", "XOAUTH2");
            props.put("mail." + smtp + ".auth.mechanisms", "XOAUTH2");
        }
        props.putAll(accounts.sessionProperties());
        props.putAll(extra);
        return Session.getInstance(props);
    }

    private static String imapProtocol(Account account) {
        return account.security() == MailAccounts.Security.TLS ? "imaps" : "imap";
    }

    private static String smtpProtocol(Account account) {
        return account.security() == MailAccounts.Security.TLS ? "smtps" : "smtp";
    }

    // ---- helpers

    private static ObjectNode summary(Message message, ZoneId zone, String folder) throws MessagingException {
        ObjectNode email = Json.object();
        String[] ids = message.getHeader("Message-ID");
        email.put("id", ids == null || ids.length == 0 ? "" : ids[0]);
        if (message.getFolder() instanceof UIDFolder uids) {
            email.put("uid", uids.getUID(message));
        }
        Address[] from = message.getFrom();
        email.put("from", from == null || from.length == 0 ? "" : ((InternetAddress) from[0]).toUnicodeString());
        ArrayNode to = email.putArray("to");
        Address[] recipients = message.getRecipients(Message.RecipientType.TO);
        if (recipients != null) {
            for (Address a : recipients) {
                to.add(((InternetAddress) a).getAddress());
            }
        }
        email.put("subject", message.getSubject() == null ? "" : message.getSubject());
        Date date = message.getReceivedDate() != null ? message.getReceivedDate() : message.getSentDate();
        if (date != null) {
            email.put("date", date.toInstant().atZone(zone).toOffsetDateTime().toString());
        }
        email.put("unread", !message.isSet(Flags.Flag.SEEN));
        email.put("starred", message.isSet(Flags.Flag.FLAGGED));
        ArrayNode labels = email.putArray("labels");
        for (String keyword : message.getFlags().getUserFlags()) {
            labels.add(keyword);
        }
        email.put("folder", folder);
        return email;
    }

    private static String bodyOf(Part part) throws MessagingException {
        try {
            if (part.isMimeType("text/plain")) {
                return String.valueOf(part.getContent());
            }
            if (part.isMimeType("multipart/*") && part.getContent() instanceof Multipart multipart) {
                String html = "";
                for (int i = 0; i < multipart.getCount(); i++) {
                    String text = bodyOf(multipart.getBodyPart(i));
                    if (multipart.getBodyPart(i).isMimeType("text/plain") && !text.isEmpty()) {
                        return text;
                    }
                    if (html.isEmpty()) {
                        html = text;
                    }
                }
                return html;
            }
            if (part.isMimeType("text/html")) {
                return String.valueOf(part.getContent())
                        .replaceAll("<[^>]+>", " ")
                        .replaceAll("\\s{2,}", " ")
                        .trim();
            }
            return "";
        } catch (IOException e) {
            throw new MessagingException("cannot read the message body", e);
        }
    }

    /** A Message-ID for the call: the same for the same user and idempotency key. */
    static String messageId(Account account, String user, String key) {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256").digest((user + "\n" + key).getBytes(StandardCharsets.UTF_8));
            String domain = account.address().contains("@")
                    ? account.address().substring(account.address().indexOf('@') + 1)
                    : "weft.local";
            return "<weft." + HexFormat.of().formatHex(digest, 0, 16) + "@" + domain + ">";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static ArrayNode recipients(ObjectNode args, String field, boolean required) {
        JsonNode value = args.path(field);
        ArrayNode out = Json.mapper().createArrayNode();
        if (value.isTextual()) {
            for (String piece : value.asText().split("\\s*[,;]\\s*")) {
                if (!piece.isBlank()) {
                    out.add(piece.trim());
                }
            }
        } else if (value.isArray()) {
            value.forEach(v -> out.add(v.asText().trim()));
        }
        if (required && out.isEmpty()) {
            throw invalid("'" + field + "' needs at least one email address");
        }
        for (JsonNode address : out) {
            try {
                new InternetAddress(address.asText(), true);
            } catch (AddressException e) {
                throw invalid("'" + address.asText() + "' in '" + field + "' is not an email address");
            }
            if (!address.asText().contains("@")) {
                throw invalid("'" + address.asText() + "' in '" + field + "' is not an email address (no @)");
            }
        }
        return out;
    }

    private static Address[] addresses(ArrayNode list) throws AddressException {
        Address[] out = new Address[list.size()];
        for (int i = 0; i < list.size(); i++) {
            out[i] = new InternetAddress(list.get(i).asText(), true);
        }
        return out;
    }

    private static String folderOf(ObjectNode args, String fallback) {
        return text(args, "folder").orElse(fallback);
    }

    private static String emailId(ObjectNode args) {
        return text(args, "emailId").orElseThrow(() -> invalid("this operation needs 'emailId'"));
    }

    private static String requireText(ObjectNode args, String field) {
        return text(args, field).orElseThrow(() -> invalid("this operation needs '" + field + "'"));
    }

    private static java.util.Optional<String> text(ObjectNode args, String field) {
        JsonNode value = args.path(field);
        return value.isTextual() && !value.asText().isBlank()
                ? java.util.Optional.of(value.asText().trim())
                : java.util.Optional.empty();
    }

    private static WeftException invalid(String message) {
        return new WeftException(ErrorCode.E_ARGS_INVALID, message);
    }

    /** What a server's failure is: transient when it cannot be reached, not when it refuses the login. */
    private static WeftException unavailable(Account account, String server, MessagingException e) {
        String where = server + " "
                + (server.equals("IMAP")
                        ? account.imapHost() + ":" + account.imapPort()
                        : account.smtpHost() + ":" + account.smtpPort());
        if (e instanceof AuthenticationFailedException) {
            return new WeftException(
                    ErrorCode.E_MAIL_UNAVAILABLE,
                    where + " refused the login of " + account.login() + ": check the password or token"
                            + " ('weft memo mail add' to change it)");
        }
        Throwable cause = e;
        while (cause != null) {
            if (cause instanceof ConnectException
                    || cause instanceof SocketTimeoutException
                    || cause instanceof UnknownHostException
                    || cause instanceof NoRouteToHostException) {
                return new TransientException(
                        ErrorCode.E_MAIL_UNAVAILABLE, "cannot reach " + where + ": " + cause.getMessage(), e);
            }
            cause = cause.getCause();
        }
        return new WeftException(
                ErrorCode.E_MAIL_UNAVAILABLE,
                where + " failed: "
                        + String.valueOf(e.getMessage())
                                .toLowerCase(Locale.ROOT)
                                .strip());
    }
}
