package dev.weft.concierge.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.concierge.shop.Words;
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
        assertThat(Words.typoOf("cancle", "cancel")).isTrue();
        assertThat(Words.typoOf("retrun", "return")).isTrue();
        assertThat(Words.typoOf("adress", "address")).isTrue();
        assertThat(Words.typoOf("exchnage", "exchange")).isTrue();
        assertThat(Words.typoOf("cancel", "cancel")).isFalse();
        assertThat(Words.typoOf("recall", "cancel")).isFalse();
        assertThat(Words.typoOf("w1012", "w1013")).isFalse();
    }
}
