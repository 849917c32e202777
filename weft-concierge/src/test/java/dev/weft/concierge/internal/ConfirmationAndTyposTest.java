package dev.weft.concierge.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.language.Typos;
import org.junit.jupiter.api.Test;

/** What a customer's answer to a waiting question says, and the slips in words the planner forgives. */
final class ConfirmationAndTyposTest {
    @Test
    void aNoThatPutsTheRequestRightIsANewMessageNotADecline() {
        assertThat(Confirmation.of("no wait, I meant W1042")).isEqualTo(Confirmation.NEITHER);
        assertThat(Confirmation.of("רגע, טעיתי, התכוונתי ל-W1047")).isEqualTo(Confirmation.NEITHER);
        assertThat(Confirmation.of("לא לא, טעות שלי")).isEqualTo(Confirmation.NEITHER);
        assertThat(Confirmation.of("No, actually keep it")).isEqualTo(Confirmation.NO);
        assertThat(Confirmation.of("לא, עזוב")).isEqualTo(Confirmation.NO);
        assertThat(Confirmation.of("yes please")).isEqualTo(Confirmation.YES);
    }

    @Test
    void aTypoIsOneLetterOffOrTwoLettersSwapped() {
        assertThat(Typos.typoOf("cancle", "cancel")).isTrue();
        assertThat(Typos.typoOf("retrun", "return")).isTrue();
        assertThat(Typos.typoOf("adress", "address")).isTrue();
        assertThat(Typos.typoOf("exchnage", "exchange")).isTrue();
        assertThat(Typos.typoOf("cancel", "cancel")).isFalse();
        assertThat(Typos.typoOf("recall", "cancel")).isFalse();
        assertThat(Typos.typoOf("w1012", "w1013")).isFalse();
    }
}
