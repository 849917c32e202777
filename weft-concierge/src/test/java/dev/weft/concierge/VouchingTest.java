package dev.weft.concierge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.weft.assistant.Vouch;
import dev.weft.concierge.shop.CodeSender;
import dev.weft.concierge.shop.CustomerTokens;
import dev.weft.concierge.shop.DemoShop;
import dev.weft.concierge.shop.OneTimeCodes;
import dev.weft.concierge.shop.OrderStatus;
import dev.weft.concierge.shop.Shop;
import dev.weft.concierge.shop.ShopPolicy;
import dev.weft.core.ErrorCode;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who the concierge acts for outside the demo: the customer a storefront vouches for (a token signed with
 * the shop's key, or a key made for one customer), or one who says back the one-time code mailed to the
 * account's address (a real SMTP server, GreenMail). Knowing an email is never enough to change anything.
 */
final class VouchingTest {
    private static final String SECRET = "a-shop-secret-of-at-least-32-bytes!!";
    private static final String MASON = "mason.martinez@example.com";
    private static final String EMMA = "emma.johnson@example.com";

    @TempDir
    Path dir;

    private RunStore store;
    private GreenMail mail;
    private Concierge concierge;
    private Runner runner;
    private Shop shop;
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-24T08:00:00Z"));
    private final CustomerTokens tokens = CustomerTokens.hs256(SECRET);

    @BeforeEach
    void open() {
        mail = new GreenMail(ServerSetupTest.SMTP.dynamicPort());
        mail.start();
        store = Stores.open("sqlite:" + dir.resolve("concierge.db"));
        ShopPolicy policy = ShopPolicy.fromEnvironment(Map.of(
                "WEFT_SHOP_SECRET",
                SECRET,
                "WEFT_SHOP_SMTP",
                "smtp://127.0.0.1:" + mail.getSmtp().getPort(),
                "WEFT_SHOP_FROM",
                "shop@example.com"));
        concierge = Concierge.open(store, Optional.empty(), policy);
        runner = Runner.builder().store(store).time(TimeSource.of(now::get)).build();
        shop = concierge.shop();
        DemoShop.load(shop, now.get());
    }

    @AfterEach
    void close() {
        store.close();
        mail.stop();
    }

    private Concierge.Reply say(String session, String text) {
        return concierge.converse(runner, "shop", session, text, Optional.empty());
    }

    private Concierge.Reply say(String session, String text, Vouch vouch) {
        return concierge.converse(runner, "shop", session, text, Optional.empty(), Optional.of(vouch));
    }

    private OrderStatus w1002() {
        return shop.order("W1002").orElseThrow().status();
    }

    /** The code in the last mail {@code to} received. */
    private String codeMailedTo(String to) throws Exception {
        assertThat(mail.waitForIncomingEmail(5_000, 1)).isTrue();
        MimeMessage last = null;
        for (MimeMessage message : mail.getReceivedMessages()) {
            if (message.getAllRecipients()[0].toString().equals(to)) {
                last = message;
            }
        }
        assertThat(last).as("a mail to " + to).isNotNull();
        Matcher code = Pattern.compile("\\b(\\d{6})\\b").matcher(GreenMailUtil.getBody(last));
        assertThat(code.find()).isTrue();
        return code.group(1);
    }

    @Test
    void aCustomerTheStorefrontVouchesForActsOnTheirOrderWithoutSayingWhoTheyAre() {
        Vouch mason = new Vouch.SignedToken(tokens.sign(MASON, now.get().plus(Duration.ofMinutes(5))));

        Concierge.Reply asked = say("web-1", "Please cancel order W1002", mason);
        Concierge.Reply yes = say("web-1", "yes", mason);

        assertThat(asked.waiting()).as(asked.text()).isTrue();
        assertThat(yes.text()).contains("cancelled");
        assertThat(w1002()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void aVouchedConversationCannotActForAnotherCustomerByNamingTheirEmail() {
        Vouch emma = new Vouch.SignedToken(tokens.sign(EMMA, now.get().plus(Duration.ofMinutes(5))));

        Concierge.Reply asked = say("web-2", "cancel W1002, my email is " + MASON, emma);
        Concierge.Reply yes = say("web-2", "yes", emma);

        assertThat(asked.text()).contains("signed in as " + EMMA);
        assertThat(yes.text()).doesNotContain("cancelled");
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void aTokenSignedWithAnotherKeyIsRefusedAndNothingIsSaidOrDone() {
        String forged = CustomerTokens.hs256("another-key-of-at-least-thirty-two-bytes")
                .sign(MASON, now.get().plus(Duration.ofMinutes(5)));

        assertThatThrownBy(() -> say("web-3", "cancel W1002", new Vouch.SignedToken(forged)))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_CUSTOMER_TOKEN_INVALID))
                .hasMessageContaining("not signed with the shop's key");
        assertThat(concierge.conversations().recent("shop", "web-3", 10)).isEmpty();
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void anExpiredOrMalformedTokenIsRefused() {
        String token = tokens.sign(MASON, now.get().plus(Duration.ofMinutes(5)));
        now.set(now.get().plus(Duration.ofMinutes(6)));

        assertThatThrownBy(() -> say("web-4", "cancel W1002", new Vouch.SignedToken(token)))
                .hasMessageContaining("expired");
        assertThatThrownBy(() -> say("web-4", "cancel W1002", new Vouch.SignedToken("not.a.jwt")))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_CUSTOMER_TOKEN_INVALID));
        assertThat(shop.vouched("shop", "web-4")).isEmpty();
    }

    @Test
    void aVouchedConversationTakesNoMessageWithoutItsCustomersToken() {
        Vouch mason = new Vouch.SignedToken(tokens.sign(MASON, now.get().plus(Duration.ofMinutes(5))));
        say("web-5", "Please cancel order W1002", mason);

        assertThatThrownBy(() -> say("web-5", "yes"))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_CUSTOMER_TOKEN_INVALID));
        assertThatThrownBy(() -> say("web-5", "yes", new Vouch.BoundKey(EMMA)))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_FORBIDDEN));
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void aKeyBoundToACustomerActsForThatCustomerOnly() {
        Vouch emmasKey = new Vouch.BoundKey(EMMA);

        Concierge.Reply others = say("key-1", "cancel W1002", emmasKey);
        say("key-1", "yes", emmasKey);

        assertThat(others.waiting()).isFalse();
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void knowingAnEmailSendsACodeToTheAccountAndChangesNothing() throws Exception {
        Concierge.Reply asked = say("chat-1", "cancel order W1002, my email is " + MASON);
        Concierge.Reply yes = say("chat-1", "yes");

        assertThat(asked.waiting()).isFalse();
        assertThat(asked.text()).contains("six-digit code");
        assertThat(codeMailedTo(MASON)).hasSize(6);
        assertThat(yes.text()).doesNotContain("cancelled");
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void theRightCodeLetsTheCustomerInAndCarriesOnWhatTheyAsked() throws Exception {
        say("chat-2", "cancel order W1002, my email is " + MASON);
        String code = codeMailedTo(MASON);

        Concierge.Reply verified = say("chat-2", code);
        Concierge.Reply yes = say("chat-2", "yes");

        assertThat(verified.text()).contains("the code is right", "W1002");
        assertThat(verified.waiting()).as(verified.text()).isTrue();
        assertThat(yes.text()).contains("cancelled");
        assertThat(w1002()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void aWrongCodeDoesNotAndAFourthTryIsRefusedEvenWithTheRightCode() throws Exception {
        say("chat-3", "cancel order W1002, my email is " + MASON);
        String code = codeMailedTo(MASON);
        String wrong = code.equals("000000") ? "111111" : "000000";

        Concierge.Reply first = say("chat-3", wrong);
        say("chat-3", wrong);
        Concierge.Reply third = say("chat-3", wrong);
        Concierge.Reply fourth = say("chat-3", code);
        say("chat-3", "yes");

        assertThat(first.text()).contains("isn't right", "2 more");
        assertThat(first.toolCalls().get(0).path("code").asText()).isEqualTo("E_CODE_INVALID");
        assertThat(third.text()).contains("can't be used any more");
        assertThat(fourth.text()).contains("can't be used any more");
        assertThat(shop.identity("shop", "chat-3")).isEmpty();
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void aCodeSaidAfterTenMinutesHasExpired() throws Exception {
        say("chat-4", "cancel order W1002, my email is " + MASON);
        String code = codeMailedTo(MASON);
        now.set(now.get().plus(Duration.ofMinutes(10)));

        Concierge.Reply late = say("chat-4", code);
        say("chat-4", "yes");

        assertThat(late.text()).contains("expired");
        assertThat(shop.identity("shop", "chat-4")).isEmpty();
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void aCodeProvesTheAccountOnlyInTheConversationThatAskedForIt() throws Exception {
        say("chat-5", "cancel order W1002, my email is " + MASON);
        String code = codeMailedTo(MASON);

        Concierge.Reply elsewhere = say("chat-6", "cancel order W1002, code " + code);
        say("chat-6", "yes");

        assertThat(elsewhere.waiting()).isFalse();
        assertThat(shop.identity("shop", "chat-6")).isEmpty();
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void withoutAWayToMailCodesTheConciergeSaysToSignInOnTheStorefront() {
        Concierge strict = Concierge.open(store, Optional.empty(), ShopPolicy.strict());

        Concierge.Reply asked =
                strict.converse(runner, "shop", "chat-7", "cancel W1002, my email is " + MASON, Optional.empty());

        assertThat(asked.text()).contains("sign in on the shop's website");
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void theShopsSettingsAreCheckedAtStart() {
        assertThatThrownBy(() -> ShopPolicy.fromEnvironment(Map.of("WEFT_SHOP_SECRET", "too-short")))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_SHOP_CONFIG_INVALID))
                .hasMessageContaining("at least 32 bytes");
        assertThatThrownBy(() -> ShopPolicy.fromEnvironment(Map.of("WEFT_SHOP_VERIFY", "trust-me")))
                .hasMessageContaining("'code' (the default) or 'demo'");
        assertThatThrownBy(() -> ShopPolicy.fromEnvironment(Map.of("WEFT_SHOP_SMTP", "http://x:25")))
                .hasMessageContaining("WEFT_SHOP_FROM");
        assertThat(ShopPolicy.fromEnvironment(Map.of()).verification()).isEqualTo(ShopPolicy.Verification.CODE);
        assertThat(CodeSender.smtp(URI.create("smtp://127.0.0.1:1"), "a@b.c")).isNotNull();
    }

    @Test
    void byDefaultNothingOfAnAccountIsReadBeforeTheCode() {
        Concierge.Reply status = say("chat-8", "what's the status of order W1002? my email is " + MASON);

        assertThat(status.text()).contains("six-digit code").doesNotContain("pending");
    }

    @Test
    void aShopThatOpensOrderStatusShowsANamedOrdersStatusBeforeTheCodeButNothingMore() throws Exception {
        ShopPolicy open = ShopPolicy.fromEnvironment(Map.of(
                "WEFT_SHOP_SMTP", "smtp://127.0.0.1:" + mail.getSmtp().getPort(),
                "WEFT_SHOP_FROM", "shop@example.com",
                "WEFT_SHOP_OPEN_READS", "order_status"));
        Concierge shop = Concierge.open(store, Optional.empty(), open);

        Concierge.Reply status = shop.converse(
                runner, "shop", "open-1", "what's the status of order W1002? my email is " + MASON, Optional.empty());
        Concierge.Reply again =
                shop.converse(runner, "shop", "open-1", "and the status of W1002 again? " + MASON, Optional.empty());
        Concierge.Reply cancel =
                shop.converse(runner, "shop", "open-1", "cancel order W1002, " + MASON, Optional.empty());
        shop.converse(runner, "shop", "open-1", "yes", Optional.empty());
        int mailed = mail.getReceivedMessages().length;
        Concierge.Reply others = shop.converse(
                runner, "shop", "open-2", "what's the status of order W1003? my email is " + MASON, Optional.empty());

        assertThat(status.text()).contains("W1002", "pending", "six-digit code");
        assertThat(again.text()).contains("pending");
        assertThat(mailed)
                .as("one code for the conversation, not one per message")
                .isEqualTo(1);
        assertThat(cancel.waiting()).isFalse();
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
        assertThat(others.text()).doesNotContain("W1003 is");
        assertThatThrownBy(() -> ShopPolicy.fromEnvironment(Map.of("WEFT_SHOP_OPEN_READS", "everything")))
                .hasMessageContaining("'none' (the default) or 'order_status'");
    }

    @Test
    void inHebrewTheCodeIsAskedForAndCheckedInHebrew() throws Exception {
        Concierge.Reply asked = say("he-1", "אני רוצה לבטל את הזמנה W1002, המייל שלי " + MASON);
        String code = codeMailedTo(MASON);
        String wrong = code.equals("000000") ? "111111" : "000000";

        Concierge.Reply missed = say("he-1", "הקוד הוא " + wrong);
        Concierge.Reply verified = say("he-1", "הקוד הוא " + code);

        assertThat(asked.text()).contains("קוד בן שש ספרות");
        assertThat(missed.text()).contains("הקוד הזה לא נכון");
        assertThat(verified.text()).contains("הקוד נכון", "W1002");
        assertThat(verified.waiting()).isTrue();
    }

    /** Whether a tool call of {@code reply} failed with {@code code}. */
    private static boolean failedWith(Concierge.Reply reply, ErrorCode code) {
        for (com.fasterxml.jackson.databind.JsonNode call : reply.toolCalls()) {
            if (call.toString().contains(code.name())) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aStrangerOpeningNewConversationsCannotMailAnAddressMoreThanFiveCodesAnHour() throws Exception {
        for (int i = 1; i <= OneTimeCodes.SENDS_PER_ADDRESS; i++) {
            Concierge.Reply asked = say("flood-" + i, "cancel order W1002, my email is " + MASON);
            assertThat(asked.text()).as("conversation " + i).contains("six-digit code");
        }
        assertThat(mail.waitForIncomingEmail(5_000, OneTimeCodes.SENDS_PER_ADDRESS))
                .isTrue();

        Concierge.Reply sixth = say("flood-6", "cancel order W1002, my email is " + MASON);
        Concierge.Reply sameAgain = say("flood-1", "cancel order W1002, my email is " + MASON);

        assertThat(sixth.text()).contains("Too many codes").doesNotContain("six-digit code");
        assertThat(failedWith(sixth, ErrorCode.E_CODE_LIMIT))
                .as(sixth.toolCalls().toString())
                .isTrue();
        assertThat(sameAgain.text())
                .as("a conversation whose code still waits is told so, and mails nothing")
                .contains("six-digit code");
        assertThat(mail.getReceivedMessages()).hasSize(OneTimeCodes.SENDS_PER_ADDRESS);

        now.set(now.get().plus(OneTimeCodes.SEND_WINDOW));
        Concierge.Reply later = say("flood-7", "cancel order W1002, my email is " + MASON);

        assertThat(later.text()).contains("six-digit code");
        assertThat(mail.waitForIncomingEmail(5_000, OneTimeCodes.SENDS_PER_ADDRESS + 1))
                .isTrue();
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void anAddressOnNoAccountIsLimitedTheSameWaySoTheLimitTellsNobodyWhetherItIsOnOne() {
        String nobody = "nobody.at.all@example.com";
        for (int i = 1; i <= OneTimeCodes.SENDS_PER_ADDRESS; i++) {
            assertThat(say("probe-" + i, "cancel order W1002, my email is " + nobody)
                            .text())
                    .contains("six-digit code");
        }

        Concierge.Reply sixth = say("probe-6", "cancel order W1002, my email is " + nobody);

        assertThat(sixth.text()).contains("Too many codes");
        assertThat(failedWith(sixth, ErrorCode.E_CODE_LIMIT)).isTrue();
        assertThat(mail.getReceivedMessages()).isEmpty();
    }

    @Test
    void newConversationsBuyNoNewGuessesTheRightCodeAfterTenWrongOnesForAnAddressIsNotTaken() throws Exception {
        int wrongSaid = 0;
        String lastCode = "";
        String lastSession = "";
        for (int conversation = 1; wrongSaid < OneTimeCodes.WRONG_TRIES_PER_ADDRESS; conversation++) {
            lastSession = "guess-" + conversation;
            say(lastSession, "cancel order W1002, my email is " + MASON);
            assertThat(mail.waitForIncomingEmail(5_000, conversation)).isTrue();
            lastCode = codeMailedTo(MASON);
            String wrong = lastCode.equals("000000") ? "111111" : "000000";
            for (int guess = 0;
                    guess < OneTimeCodes.TRIES - 1 && wrongSaid < OneTimeCodes.WRONG_TRIES_PER_ADDRESS;
                    guess++) {
                Concierge.Reply reply = say(lastSession, wrong);
                assertThat(reply.text()).contains("isn't right");
                wrongSaid++;
            }
        }

        Concierge.Reply right = say(lastSession, lastCode);
        say(lastSession, "yes");

        assertThat(right.text()).contains("Too many codes").doesNotContain("the code is right");
        assertThat(failedWith(right, ErrorCode.E_CODE_LIMIT))
                .as(right.toolCalls().toString())
                .isTrue();
        assertThat(shop.identity("shop", lastSession)).isEmpty();
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);

        now.set(now.get().plus(OneTimeCodes.WRONG_WINDOW));
        String fresh = "guess-after-a-day";
        say(fresh, "cancel order W1002, my email is " + MASON);
        assertThat(mail.waitForIncomingEmail(5_000, mail.getReceivedMessages().length))
                .isTrue();
        assertThat(say(fresh, codeMailedTo(MASON)).text()).contains("the code is right");
    }
}
