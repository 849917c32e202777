package dev.weft.mailflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.Step;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The venue agent offline, from a raw email to the reply it writes, on a real SQLite store. */
final class VenueAgentTest {
    @TempDir
    Path dir;

    private RunStore store;
    private Mailflow mailflow;
    private Runner runner;

    @BeforeEach
    void open() {
        store = Fixtures.sqlite(dir);
        mailflow = Fixtures.mailflow(store, dir);
        mailflow.addVenue(Fixtures.oliveGrove("olive", Optional.empty()));
        runner = Fixtures.runner(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private JsonNode process(String fixture) {
        return mailflow.deliver(runner, Fixtures.raw("olive", fixture)).toJson();
    }

    @Test
    void anEnglishInquiryIsAnsweredWithTheRoomsFreeThatDayThatHoldItsGuests() {
        JsonNode out = process("inquiry-en-plain.eml");
        assertThat(out.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(out.path("filtered").isNull()).isTrue();
        assertThat(out.path("parsed").path("inquiry").asBoolean()).isTrue();
        assertThat(out.path("parsed").path("dates")).containsExactly(Json.parse("\"2026-12-12\"", "d"));
        assertThat(out.path("parsed").path("guests").asInt()).isEqualTo(120);
        assertThat(out.path("parsed").path("eventType").asText()).isEqualTo("wedding");
        assertThat(out.path("parsed").path("language").asText()).isEqualTo("en");
        JsonNode reply = out.path("reply");
        assertThat(reply.path("offered")).extracting(JsonNode::asText).containsExactly("Garden");
        assertThat(reply.path("language").asText()).isEqualTo("en");
        assertThat(reply.path("subject").asText()).isEqualTo("Re: Wedding on 12 December");
        assertThat(reply.path("inReplyTo").asText()).isEqualTo("<CAF7x1=inquiry-en-plain@mail.example.com>");
        assertThat(reply.path("body").asText())
                .startsWith("Hello Dana,")
                .contains("Saturday, 12 December 2026")
                .contains("the Garden (up to 150 guests)")
                .doesNotContain("Hall")
                .doesNotContain("?");
        assertThat(out.path("sent").asBoolean()).isFalse();
        assertThat(out.path("notSent").asText()).contains("no mailbox");
    }

    @Test
    void aHebrewInquiryInWindows1255IsAnsweredInHebrew() {
        JsonNode out = process("inquiry-he-windows-1255.eml");
        assertThat(out.path("parsed").path("language").asText()).isEqualTo("he");
        assertThat(out.path("parsed").path("dates").get(0).asText()).isEqualTo("2026-12-12");
        assertThat(out.path("parsed").path("guests").asInt()).isEqualTo(150);
        assertThat(out.path("parsed").path("budget").path("amount").asLong()).isEqualTo(60_000);
        assertThat(out.path("reply").path("language").asText()).isEqualTo("he");
        assertThat(out.path("reply").path("offered"))
                .extracting(JsonNode::asText)
                .containsExactly("Garden");
        assertThat(out.path("reply").path("body").asText())
                .startsWith("שלום מיכל,")
                .contains("12 בדצמבר 2026");
    }

    @Test
    void alternativeDatesAreEachChecked() {
        JsonNode out = process("inquiry-html-only.eml");
        assertThat(out.path("parsed").path("dates"))
                .extracting(JsonNode::asText)
                .containsExactly("2026-06-05", "2026-06-12");
        assertThat(out.path("parsed").path("guests").asInt()).isEqualTo(40);
        assertThat(out.path("reply").path("offered"))
                .extracting(JsonNode::asText)
                .containsExactly("Garden", "Hall", "Salon");
    }

    @Test
    void anInquiryWithoutADateGetsAQuestionAndOffersNothing() {
        JsonNode out = process("missing-date.eml");
        assertThat(out.path("parsed").path("inquiry").asBoolean()).isTrue();
        assertThat(out.path("parsed").path("missing"))
                .extracting(JsonNode::asText)
                .containsExactly("date");
        assertThat(out.path("reply").path("offered")).isEmpty();
        assertThat(out.path("reply").path("question").asBoolean()).isTrue();
        assertThat(out.path("reply").path("body").asText()).contains("What date is the event?");
    }

    @Test
    void autoRepliesBouncesAndTheVenuesOwnMailStartNoRun() {
        assertThat(process("out-of-office.eml").path("filtered").asText()).startsWith("auto-reply: Auto-Submitted");
        assertThat(process("bounce.eml").path("filtered").asText()).startsWith("bounce:");
        JsonNode own = process("own-reply.eml");
        assertThat(own.path("filtered").asText()).startsWith("own:");
        assertThat(own.path("runId").isNull()).isTrue();
        assertThat(own.path("status").asText()).isEqualTo("FILTERED");
        assertThat(store.listRuns(Optional.empty())).isEmpty();
    }

    @Test
    void theSameEmailDeliveredTwiceStartsOneRun() {
        JsonNode first = process("inquiry-en-plain.eml");
        JsonNode second = mailflow.deliver(
                        runner,
                        new Mailflow.Delivery(
                                "olive",
                                new Mailflow.Source.Raw(Fixtures.email("inquiry-en-plain.eml")),
                                "imap",
                                Optional.of(Fixtures.NOW),
                                false))
                .toJson();
        assertThat(second.path("runId").asText()).isEqualTo(first.path("runId").asText());
        assertThat(second.path("duplicate").asBoolean()).isTrue();
        assertThat(first.path("duplicate").asBoolean()).isFalse();
        assertThat(store.listRuns(Optional.empty())).hasSize(1);
    }

    @Test
    void aDryRunRunsTheWorkflowButClaimsNothing() {
        Mailflow.Delivery dry = new Mailflow.Delivery(
                "olive",
                new Mailflow.Source.Raw(Fixtures.email("inquiry-en-plain.eml")),
                "cli",
                Optional.of(Fixtures.NOW),
                true);
        JsonNode out = mailflow.deliver(runner, dry).toJson();
        assertThat(out.path("reply").path("offered"))
                .extracting(JsonNode::asText)
                .containsExactly("Garden");
        assertThat(out.path("notSent").asText()).contains("dry run");
        assertThat(process("inquiry-en-plain.eml").path("duplicate").asBoolean())
                .isFalse();
    }

    @Test
    void everyStepIsLoggedWithItsResolvedPromptAndTheRunBelongsToTheOrganization() {
        JsonNode out = process("inquiry-en-plain.eml");
        String runId = out.path("runId").asText();
        assertThat(store.findRun(runId).orElseThrow().user()).contains("olive");
        List<Step> steps = store.steps(runId);
        assertThat(steps)
                .extracting(Step::nodeId)
                .containsExactly(
                        "email", "parse", "enough", "orchestrate", "get_availability", "execution", "reply_ok", "send");
        Step parse = steps.get(1);
        assertThat(parse.details().get("prompt").path("user").asText()).contains("about 120 guests");
        assertThat(parse.details().get("prompt").path("system").asText()).contains("Olive Grove");
        assertThat(parse.details().get("confidence").asDouble()).isEqualTo(1.0);
    }

    @Test
    void aReplyInAThreadTakesWhatTheEarlierEmailSaid() {
        String question = "From: Dana Cohen <dana.cohen@example.com>\r\nTo: events@olivegrove.example\r\n"
                + "Message-ID: <first-question@mail.example.com>\r\nSubject: Party\r\n\r\n"
                + "Hi, could we book a party on 20 November 2026?\r\n";
        JsonNode first = mailflow.deliver(
                        runner,
                        new Mailflow.Delivery(
                                "olive",
                                new Mailflow.Source.Raw(question.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                                "cli",
                                Optional.of(Fixtures.NOW),
                                false))
                .toJson();
        assertThat(first.path("parsed").path("missing"))
                .extracting(JsonNode::asText)
                .containsExactly("guests");
        JsonNode answer = process("reply-with-quote.eml");
        assertThat(answer.path("parsed").path("dates").get(0).asText()).isEqualTo("2026-11-20");
        assertThat(answer.path("parsed").path("guests").asInt()).isEqualTo(70);
        assertThat(answer.path("reply").path("offered"))
                .extracting(JsonNode::asText)
                .containsExactly("Garden", "Hall");
    }

    @Test
    void anUnknownVenueIsNotFoundAndStartsNothing() {
        assertThatThrownBy(() -> mailflow.deliver(runner, Fixtures.raw("nowhere", "inquiry-en-plain.eml")))
                .isInstanceOf(NotFoundException.class)
                .hasMessageContaining("no venue 'nowhere'");
        assertThatThrownBy(() -> mailflow.deliver(runner, Fixtures.raw("olive", "malformed.eml")))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_EMAIL_INVALID));
        assertThat(store.listRuns(Optional.empty())).isEmpty();
    }

    @Test
    void aTemplateThatDoesNotCompileIsRefusedNamingTheNodeAndRule() {
        Template template = mailflow.template("olive").template();
        List<Template.Connection> links = template.connections().stream()
                .filter(c -> !(c.source().equals("enough") && c.sourceHandle().equals("negative")))
                .toList();
        Template broken = new Template(
                template.id(), template.name(), template.variables(), template.nodes(), template.tools(), links);
        assertThatThrownBy(() -> mailflow.importTemplate("olive", broken))
                .isInstanceOf(GraphInvalidException.class)
                .hasMessageContaining("enough")
                .hasMessageContaining("negative");
        assertThat(mailflow.template("olive").version()).isEqualTo(1);
    }

    @Test
    void theStoredTemplateRoundTripsThroughItsRows() {
        MailflowData.StoredTemplate stored = mailflow.template("olive");
        assertThat(stored.template().tools()).extracting(Template.Item::type).containsExactly("get_availability");
        MailflowData.StoredTemplate again = mailflow.importTemplate(
                "olive", Template.fromJson(stored.template().toJson(), "t"));
        assertThat(again.version()).isEqualTo(2);
        assertThat(again.template()).isEqualTo(stored.template());
    }

    @Test
    void aRunIsRebuiltFromTheStoreAndRerunWithParsePinned() {
        JsonNode out = process("inquiry-en-plain.eml");
        var run = store.findRun(out.path("runId").asText()).orElseThrow();
        Mailflow other = Fixtures.mailflow(store, dir);
        var graph = other.graphOf(run).orElseThrow();
        var rerun = Fixtures.runner(store)
                .run(
                        graph,
                        dev.weft.core.RunRequest.rerunOf(run, graph, store.steps(run.id()), List.of("parse"))
                                .build());
        assertThat(rerun.status()).isEqualTo(RunStatus.COMPLETED);
        Step parse = rerun.steps().stream()
                .filter(s -> s.nodeId().equals("parse"))
                .findFirst()
                .orElseThrow();
        assertThat(parse.pinned()).isTrue();
        assertThat(parse.details()).doesNotContainKey("prompt");
        assertThat(Processed.replyOf(rerun).orElseThrow().path("offered"))
                .extracting(JsonNode::asText)
                .containsExactly("Garden");
    }
}
