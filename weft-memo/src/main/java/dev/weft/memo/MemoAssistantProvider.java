package dev.weft.memo;

import dev.weft.assistant.Assistant;
import dev.weft.assistant.AssistantEnvironment;
import dev.weft.assistant.AssistantProvider;
import dev.weft.workflow.A2aAgents;
import dev.weft.workflow.A2aAgentsSource;
import java.util.Map;
import java.util.Optional;

/**
 * Opens Memo for a process: planning with the environment's model when there is one, else offline;
 * users' mail secrets under the key {@code $WEFT_HOME/mail.key}; asking the remote A2A agents configured
 * in {@code $WEFT_HOME/agents.json} and {@code WEFT_A2A_AGENTS} ({@link A2aAgents}), the file read again
 * when it changes ({@link A2aAgentsSource}).
 */
public final class MemoAssistantProvider implements AssistantProvider {
    private static final System.Logger LOG = System.getLogger(MemoAssistantProvider.class.getName());

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
        // Read again whenever agents.json changes; a file that does not read keeps the agents read before.
        A2aAgentsSource agents = A2aAgentsSource.of(
                environment.home(), env, line -> LOG.log(System.Logger.Level.WARNING, "memo: " + line));
        return new MemoAssistant(memo, agents::current, name -> Optional.ofNullable(env.get(name)));
    }
}
