package dev.weft.memo;

import dev.weft.assistant.Assistant;
import dev.weft.assistant.AssistantEnvironment;
import dev.weft.assistant.AssistantProvider;

/**
 * Opens Memo for a process: planning with the environment's model when there is one, else offline;
 * users' mail secrets under the key {@code $WEFT_HOME/mail.key}.
 */
public final class MemoAssistantProvider implements AssistantProvider {
    @Override
    public String name() {
        return Memo.EXECUTOR;
    }

    @Override
    public Assistant open(AssistantEnvironment environment) {
        Memo memo = environment
                .model()
                .map(model -> Memo.open(environment.store(), model, environment.time()))
                .orElseGet(() -> Memo.open(environment.store()));
        memo.data().mail().secrets().useKeyFile(environment.home().resolve("mail.key"));
        return new MemoAssistant(memo);
    }
}
