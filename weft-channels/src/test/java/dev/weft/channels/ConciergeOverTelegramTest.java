package dev.weft.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.weft.assistant.Assistants;
import dev.weft.concierge.Concierge;
import dev.weft.concierge.ConciergeAssistant;
import dev.weft.concierge.shop.DemoShop;
import dev.weft.concierge.shop.OrderStatus;
import dev.weft.concierge.shop.Shop;
import dev.weft.concierge.shop.ShopPolicy;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The concierge behind paired Telegram chats (a fake Bot API at the wire, the shop's SMTP a real
 * GreenMail): a chat that merely names a customer's email acts for nobody, and only the chat that says
 * back the code mailed to the account acts for that customer.
 */
final class ConciergeOverTelegramTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String MASON = "mason.martinez@example.com";

    @TempDir
    Path dir;

    RunStore store;
    GreenMail mail;
    FakeBotApi api;
    ChannelStore chats;
    MutableClock clock;
    TelegramChannel telegram;
    Shop shop;

    @BeforeEach
    void start() {
        mail = new GreenMail(ServerSetupTest.SMTP.dynamicPort());
        mail.start();
        store = Stores.open("sqlite:" + dir.resolve("weft.db"));
        Concierge concierge = Concierge.open(
                store,
                Optional.empty(),
                ShopPolicy.fromEnvironment(Map.of(
                        "WEFT_SHOP_SMTP",
                        "smtp://127.0.0.1:" + mail.getSmtp().getPort(),
                        "WEFT_SHOP_FROM",
                        "shop@example.com")));
        shop = concierge.shop();
        DemoShop.load(shop, Instant.now());
        api = new FakeBotApi();
        chats = ChannelStore.open(store);
        clock = new MutableClock(Instant.now());
        Conversations conversations = Conversations.builder(
                        chats,
                        Assistants.of(new ConciergeAssistant(concierge)),
                        Runner.builder().store(store).build())
                .clock(clock)
                .build();
        telegram = TelegramChannel.create(api.url(), FakeBotApi.TOKEN, conversations, Duration.ofSeconds(1));
        telegram.start();
    }

    @AfterEach
    void stop() {
        telegram.close();
        api.close();
        store.close();
        mail.stop();
    }

    private void pair(long chat) {
        api.say(chat, "chat " + chat, "hello");
        String text = api.await(
                        m -> m.chatId().equals(Long.toString(chat)) && m.text().contains("pairing code"), WAIT)
                .text();
        String code = text.replaceAll("(?s).*pairing code is ([A-Z0-9-]+).*", "$1");
        Conversations.approve(chats, code, Optional.of("shop"), Optional.of("concierge"), clock);
    }

    /** What the bot says next to {@code chat} after {@code text}. */
    private String say(long chat, String text) {
        int before = api.sent().size();
        api.say(chat, "chat " + chat, text);
        return api.await(
                        m -> m.chatId().equals(Long.toString(chat))
                                && api.sent().subList(before, api.sent().size()).stream()
                                        .anyMatch(later -> later == m),
                        WAIT)
                .text();
    }

    private String lastCode() throws Exception {
        assertThat(mail.waitForIncomingEmail(5_000, 1)).isTrue();
        MimeMessage[] received = mail.getReceivedMessages();
        MimeMessage last = received[received.length - 1];
        assertThat(last.getAllRecipients()[0].toString()).isEqualTo(MASON);
        Matcher code = Pattern.compile("\\b(\\d{6})\\b").matcher(GreenMailUtil.getBody(last));
        assertThat(code.find()).isTrue();
        return code.group(1);
    }

    @Test
    void aPairedChatThatNamesAnotherCustomersEmailCannotCancelTheirOrderButTheCodesOwnerCan() throws Exception {
        pair(7);
        pair(8);

        String asked = say(7, "cancel order W1002, my email is " + MASON);
        String yes = say(7, "yes");
        String code = lastCode();
        String guessed = say(8, "cancel order W1002, my email is " + MASON + ", the code is " + code);

        assertThat(asked).contains("six-digit code");
        assertThat(yes).doesNotContain("cancelled");
        assertThat(guessed).doesNotContain("Shall I go ahead");
        assertThat(shop.order("W1002").orElseThrow().status()).isEqualTo(OrderStatus.PENDING);

        String fresh = lastCode();
        String verified = say(8, fresh);
        String done = say(8, "yes");

        assertThat(verified).contains("the code is right", "Shall I go ahead");
        assertThat(done).contains("cancelled");
        assertThat(shop.order("W1002").orElseThrow().status()).isEqualTo(OrderStatus.CANCELLED);
    }
}
