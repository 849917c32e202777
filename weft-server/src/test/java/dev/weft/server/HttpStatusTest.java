package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.ErrorCode;
import org.junit.jupiter.api.Test;

final class HttpStatusTest {

    @Test
    void failuresThatWaitForAPersonAreConflictsNotServerErrors() {
        assertThat(Http.status(ErrorCode.E_OUTCOME_UNKNOWN)).isEqualTo(409);
        assertThat(Http.status(ErrorCode.E_AUTH_REVOKED)).isEqualTo(409);
        assertThat(Http.status(ErrorCode.E_MAIL_NOT_CONFIGURED)).isEqualTo(409);
    }

    @Test
    void aForgedCustomerTokenIsUnauthorizedAndAFailureWithNoStatusOfItsOwnIsA500() {
        assertThat(Http.status(ErrorCode.E_CUSTOMER_TOKEN_INVALID)).isEqualTo(401);
        assertThat(Http.status(ErrorCode.E_NODE_FAILED)).isEqualTo(500);
    }
}
