package dev.weft.memo;

import dev.weft.assistant.Assistant;
import dev.weft.assistant.AssistantEnvironment;
import dev.weft.assistant.AssistantProvider;
import dev.weft.workflow.A2aAgents;
import java.util.Map;
import java.util.Optional;

/**
 * Opens Memo for a process: planning with the environment's model when there is one, else offline;
 * users' mail secrets under the key {@code $WEFT_HOME/mail.key}; asking the remote A2A agents configured
 * in {@code $WEFT_HOME/agents.json} and {@code WEFT_A2A_AGENTS} ({@link A2aAgents}).
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
        Map<String, String> env = environment.env();
        memo = memo.withAgents(A2aAgents.load(environment.home(), env), name -> Optional.ofNullable(env.get(name)));
        return new MemoAssistant(memo);
    }
}
