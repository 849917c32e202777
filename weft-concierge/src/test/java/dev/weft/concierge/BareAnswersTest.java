package dev.weft.concierge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.concierge.shop.DemoShop;
import dev.weft.concierge.shop.OrderStatus;
import dev.weft.concierge.shop.ShopPolicy;
import dev.weft.concierge.spi.Planner;
import dev.weft.concierge.spi.PlannerInput;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.StepScope;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A line that only says no, yes or "ok" to the concierge with nothing waiting for it (real SQLite): it
 * is answered in words, as Memo answers it, in the customer's language, and never planned; a yes or a no
 * to a change that waits still decides it.
 */
final class BareAnswersTest {
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");
    private static final String MASON = "mason.martinez@example.com";

    @TempDir
    Path dir;

    private RunStore store;
    private Runner runner;

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("concierge.db"));
        runner = Runner.builder().store(store).build();
    }

    @AfterEach
    void close() {
        store.close();
    }

    @ParameterizedTest(name = "\"{0}\" → \"{1}\"")
    @CsvSource(
            delimiter = '|',
            value = {
                "no | OK.",
                "never mind | OK.",
                "ok | OK.",
                "yes | OK — nothing is waiting for a yes right now. What would you like me to do?",
                "לא | בסדר.",
                "לא משנה | בסדר.",
                "סבבה | בסדר.",
                "כן | בסדר — אין כרגע שום דבר שמחכה לאישור. מה תרצה שאעשה?",
            })
    void aBareAnswerWithNothingWaitingIsAnsweredInWordsAndNeverPlanned(String line, String answer) {
        AtomicInteger planned = new AtomicInteger();
        Concierge concierge = Concierge.builder(store)
                .policy(ShopPolicy.demo())
                .planner(new Planner() {
                    @Override
                    public String name() {
                        return "counting";
                    }

                    @Override
                    public ObjectNode plan(StepScope step, PlannerInput input) {
                        planned.incrementAndGet();
                        throw new IllegalStateException("a bare answer is never planned");
                    }
                })
                .build();

        Concierge.Reply reply = concierge.converse(runner, "shop", "s1", line, Optional.empty());

        assertThat(reply.text()).isEqualTo(answer);
        assertThat(reply.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(reply.toolCalls()).isEmpty();
        assertThat(planned).hasValue(0);
    }

    @Test
    void aNoToAChangeThatWaitsStillTurnsItDownAndAYesAfterItFindsNothingWaiting() {
        Concierge concierge = Concierge.open(store, Optional.empty(), ShopPolicy.demo());
        DemoShop.load(concierge.shop(), NOW);
        Concierge.Reply asked =
                concierge.converse(runner, "shop", "s1", "cancel order W1002, my email is " + MASON, Optional.empty());
        assertThat(asked.run().status()).isEqualTo(RunStatus.WAITING);

        Concierge.Reply no = concierge.converse(runner, "shop", "s1", "no", Optional.empty());
        Concierge.Reply yes = concierge.converse(runner, "shop", "s1", "yes", Optional.empty());

        assertThat(no.run().runId()).isEqualTo(asked.run().runId());
        assertThat(no.text()).isNotEqualTo("OK.");
        assertThat(yes.text()).isEqualTo("OK — nothing is waiting for a yes right now. What would you like me to do?");
        assertThat(concierge.shop().order("W1002").orElseThrow().status()).isNotEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void aBareYesToAQuestionAskedInWordsIsStillPlanned() {
        Concierge concierge = Concierge.open(store, Optional.empty(), ShopPolicy.demo());
        DemoShop.load(concierge.shop(), NOW);

        Concierge.Reply asked = concierge.converse(runner, "shop", "s1", "where is my order?", Optional.empty());
        Concierge.Reply answered = concierge.converse(runner, "shop", "s1", "no", Optional.empty());

        assertThat(asked.text()).isNotBlank();
        assertThat(answered.text()).isNotEqualTo("OK.");
    }
}
