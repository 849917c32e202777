package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.assistant.Assistants;
import dev.weft.channels.ChannelStore;
import dev.weft.channels.Conversations;
import dev.weft.channels.FakeGraphApi;
import dev.weft.channels.WhatsAppChannel;
import dev.weft.core.Json;
import dev.weft.core.TimeSource;
import dev.weft.memo.Memo;
import dev.weft.memo.MemoAssistant;
import dev.weft.plan.ToolContext;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /channels/whatsapp} of a real server, called as Meta calls it (signed bodies of the Cloud API's
 * shape), answering through a fake Graph API at the wire.
 */
final class WhatsAppWebhookTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String SECRET = "app-secret-for-tests";
    private static final String VERIFY = "verify-me";

    @TempDir
    Path dir;

    FakeGraphApi graph;
    Memo memo;
    ServerFixture fixture;
    final AtomicInteger messageIds = new AtomicInteger();

    @BeforeEach
    void start() {
        graph = new FakeGraphApi();
        fixture = new ServerFixture(dir, (builder, store) -> {
            memo = Memo.open(store);
            builder.assistants(Assistants.of(new MemoAssistant(memo)))
                    .whatsApp(new WhatsAppChannel.Settings(
                            VERIFY, SECRET, FakeGraphApi.TOKEN, FakeGraphApi.PHONE_NUMBER_ID, graph.url()));
        });
    }

    @AfterEach
    void stop() {
        fixture.close();
        graph.close();
    }

    private static String sign(byte[] body) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    }

    private static String delivery(String from, String messageId, String text) {
        ObjectNode root = Json.object();
        root.put("object", "whatsapp_business_account");
        ObjectNode value = root.putArray("entry")
                .addObject()
                .put("id", "WABA")
                .putArray("changes")
                .addObject()
                .put("field", "messages")
                .putObject("value");
        value.put("messaging_product", "whatsapp");
        value.putObject("metadata").put("phone_number_id", FakeGraphApi.PHONE_NUMBER_ID);
        value.putArray("contacts")
                .addObject()
                .put("wa_id", from)
                .putObject("profile")
                .put("name", "Dana");
        ObjectNode message = value.putArray("messages").addObject();
        message.put("from", from);
        message.put("id", messageId);
        message.put("timestamp", "1700000000");
        message.put("type", "text");
        message.putObject("text").put("body", text);
        return Json.write(root);
    }

    private HttpResponse<String> post(String body, Optional<String> signature) {
        HttpRequest.Builder request = fixture.request("channels/whatsapp", Optional.empty())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        signature.ifPresent(s -> request.header("X-Hub-Signature-256", s));
        return fixture.raw(request.build());
    }

    private HttpResponse<String> say(String from, String text) throws Exception {
        return sayAs(from, "wamid." + messageIds.incrementAndGet(), text);
    }

    private HttpResponse<String> sayAs(String from, String id, String text) throws Exception {
        String body = delivery(from, id, text);
        return post(body, Optional.of(sign(body.getBytes(StandardCharsets.UTF_8))));
    }

    private String pair(String from) throws Exception {
        assertThat(say(from, "hello").statusCode()).isEqualTo(200);
        String text = graph.await(m -> m.to().equals(from) && m.text().contains("pairing code"), WAIT)
                .text();
        String code = text.replaceAll("(?s).*pairing code is ([A-Z0-9-]+).*", "$1");
        return Conversations.approve(
                        ChannelStore.open(fixture.store), code, Optional.empty(), Optional.empty(), Clock.systemUTC())
                .user();
    }

    @Test
    void metaVerifiesTheWebhookWithTheVerifyToken() {
        HttpResponse<String> ok = fixture.raw(fixture.request(
                        "channels/whatsapp?hub.mode=subscribe&hub.verify_token=" + VERIFY + "&hub.challenge=1158201444",
                        Optional.empty())
                .GET()
                .build());
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.body()).isEqualTo("1158201444");
        HttpResponse<String> wrong = fixture.raw(fixture.request(
                        "channels/whatsapp?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1", Optional.empty())
                .GET()
                .build());
        assertThat(wrong.statusCode()).isEqualTo(403);
    }

    @Test
    void aBadOrMissingSignatureIsRefusedWith401AndNothingRuns() throws Exception {
        String body = delivery("972501234567", "wamid.forged", "delete all my reminders");
        HttpResponse<String> forged = post(body, Optional.of("sha256=" + "ab".repeat(32)));
        assertThat(forged.statusCode()).isEqualTo(401);
        assertThat(Json.parse(forged.body(), "answer")
                        .path("error")
                        .path("code")
                        .asText())
                .isEqualTo("E_UNAUTHORIZED");
        HttpResponse<String> tampered = post(
                body.replace("delete all", "delete every"), Optional.of(sign(body.getBytes(StandardCharsets.UTF_8))));
        assertThat(tampered.statusCode()).isEqualTo(401);
        assertThat(post(body, Optional.empty()).statusCode()).isEqualTo(401);

        Thread.sleep(300);
        assertThat(graph.sent()).isEmpty();
        assertThat(ChannelStore.open(fixture.store).pending(Instant.now())).isEmpty();
        assertThat(fixture.store.listRuns(Optional.empty())).isEmpty();
        assertThat(sayAs("972501234567", "wamid.forged", "hi").statusCode())
                .as("a refused delivery is not remembered as handled")
                .isEqualTo(200);
        graph.await(m -> m.text().contains("pairing code"), WAIT);
    }

    @Test
    void anApprovedNumberTalksToMemoInBothLanguagesAndApprovesByReply() throws Exception {
        String user = pair("972501234567");
        assertThat(user).isEqualTo("whatsapp:972501234567");

        say("972501234567", "remind me tomorrow at 9 to call Dana");
        graph.await(m -> m.text().contains("call Dana"), WAIT);
        say("972501234567", "צור רשימת קניות עם חלב וביצים");
        assertThat(graph.await(m -> m.text().contains("חלב"), WAIT).to()).isEqualTo("972501234567");

        say("972501234567", "delete all my reminders");
        graph.await(m -> m.text().contains("yes/no"), WAIT);
        assertThat(memo.data().tasks().all(user)).hasSize(1);
        say("972501234567", "כן");
        graph.await(m -> m.text().startsWith("Deleted"), WAIT);
        assertThat(memo.data().tasks().all(user)).isEmpty();
    }

    @Test
    void aDuplicateDeliveryIsHandledOnce() throws Exception {
        String user = pair("972509999999");
        int before = graph.sent().size();
        assertThat(sayAs("972509999999", "wamid.same", "remind me tomorrow at 10 to water the plants")
                        .statusCode())
                .isEqualTo(200);
        assertThat(sayAs("972509999999", "wamid.same", "remind me tomorrow at 10 to water the plants")
                        .statusCode())
                .isEqualTo(200);
        graph.await(m -> m.text().contains("water the plants"), WAIT);
        say("972509999999", "what are my tasks?");
        graph.await(m -> graph.sent().size() >= before + 2, WAIT);
        Thread.sleep(300);
        assertThat(graph.sent().size()).isEqualTo(before + 2);
        assertThat(memo.data().tasks().all(user)).hasSize(1);
    }

    @Test
    void aReminderThatFallsDueIsSentToTheNumberItWasSetFrom() throws Exception {
        String user = pair("972507777777");
        say("972507777777", "remind me tomorrow at 9 to call the bank");
        graph.await(m -> m.text().contains("call the bank"), WAIT);
        ObjectNode soon = Json.object();
        soon.put("operation", "update");
        soon.put("taskId", memo.data().tasks().all(user).get(0).id());
        soon.put("dueDate", Instant.now().plusSeconds(2).toString());
        new MemoAssistant(memo)
                .tools()
                .call(
                        "taskOperations",
                        soon,
                        ToolContext.detached("t", Optional.of(user), "move", TimeSource.system()));
        AutoCloseable firing = new MemoAssistant(memo).notices().orElseThrow().start("test-whatsapp");
        try {
            FakeGraphApi.Sent reminder = graph.await(m -> m.text().startsWith("⏰"), WAIT);
            assertThat(reminder.to()).isEqualTo("972507777777");
            assertThat(reminder.text()).contains("call the bank");
        } finally {
            firing.close();
        }
    }

    @Test
    void withoutSettingsTheWebhookIsNotFound() {
        try (ServerFixture plain = new ServerFixture(dir.resolve("plain"))) {
            HttpResponse<String> answer = plain.raw(plain.request("channels/whatsapp", Optional.empty())
                    .POST(HttpRequest.BodyPublishers.ofString("{}"))
                    .build());
            assertThat(answer.statusCode()).isEqualTo(404);
            assertThat(answer.body()).contains("WEFT_WHATSAPP_APP_SECRET");
        }
    }

    @Test
    void settingsComeFromTheEnvironmentAndHalfASettingIsAnError() {
        assertThat(WhatsAppChannel.Settings.fromEnvironment(java.util.Map.of())).isEmpty();
        var settings = WhatsAppChannel.Settings.fromEnvironment(java.util.Map.of(
                        "WEFT_WHATSAPP_VERIFY_TOKEN", "v",
                        "WEFT_WHATSAPP_APP_SECRET", "s",
                        "WEFT_WHATSAPP_TOKEN", "t",
                        "WEFT_WHATSAPP_PHONE_NUMBER_ID", "1",
                        "WEFT_WHATSAPP_GRAPH_URL", "http://127.0.0.1:9/v21.0"))
                .orElseThrow();
        assertThat(settings.graphUrl()).isEqualTo(URI.create("http://127.0.0.1:9/v21.0"));
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> WhatsAppChannel.Settings.fromEnvironment(java.util.Map.of("WEFT_WHATSAPP_TOKEN", "t")))
                .hasMessageContaining("WEFT_WHATSAPP_APP_SECRET");
    }
}
