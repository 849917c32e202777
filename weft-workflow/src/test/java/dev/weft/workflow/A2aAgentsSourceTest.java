package dev.weft.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class A2aAgentsSourceTest {
    @TempDir
    Path home;

    private final List<String> logged = new CopyOnWriteArrayList<>();

    private static A2aAgents.Entry agent(String name) {
        return A2aAgents.entry(name, "http://127.0.0.1:9/a2a/" + name, Optional.empty(), Optional.empty(), List.of());
    }

    private static List<String> names(A2aAgents agents) {
        return agents.agents().stream().map(A2aAgent::name).toList();
    }

    @Test
    void anAgentAddedToTheFileWhileTheProcessRunsIsSeenAtTheNextLook() {
        A2aAgentsSource source = A2aAgentsSource.of(home, Map.of(), logged::add);
        A2aAgents before = source.current();

        A2aAgents.none().with(agent("travel")).writeFile(home.resolve(A2aAgents.FILE));

        assertThat(names(before)).isEmpty();
        assertThat(names(source.current())).containsExactly("travel");
        assertThat(source.current()).as("an unchanged file is not read again").isSameAs(source.current());

        A2aAgents.none().with(agent("travel")).with(agent("helper")).writeFile(home.resolve(A2aAgents.FILE));
        assertThat(names(source.current())).containsExactly("travel", "helper");
        A2aAgents.none().with(agent("helper")).writeFile(home.resolve(A2aAgents.FILE));
        assertThat(names(source.current())).as("removed").containsExactly("helper");
        assertThat(logged).isEmpty();
    }

    @Test
    void aMalformedFileKeepsTheLastGoodListAndIsLoggedWithItsCode() throws Exception {
        A2aAgents.none().with(agent("travel")).writeFile(home.resolve(A2aAgents.FILE));
        A2aAgentsSource source = A2aAgentsSource.of(home, Map.of(), logged::add);
        assertThat(names(source.current())).containsExactly("travel");

        Files.writeString(home.resolve(A2aAgents.FILE), "{\"agents\": [{\"name\": ", StandardCharsets.UTF_8);

        assertThat(names(source.current())).containsExactly("travel");
        assertThat(names(source.current())).containsExactly("travel");
        assertThat(logged).hasSize(1);
        assertThat(logged.get(0)).startsWith("E_AGENTS_INVALID").contains(A2aAgents.FILE);

        A2aAgents.none().with(agent("helper")).writeFile(home.resolve(A2aAgents.FILE));
        assertThat(names(source.current())).as("fixed").containsExactly("helper");
    }

    @Test
    void aFileMalformedFromTheStartLeavesTheSettingsAgentsAndTheSettingWinsOverTheFile() throws Exception {
        Files.writeString(home.resolve(A2aAgents.FILE), "not json", StandardCharsets.UTF_8);
        String setting = "[{\"name\": \"travel\", \"url\": \"http://127.0.0.1:9/a2a/set\"}]";

        A2aAgentsSource source = A2aAgentsSource.of(home, Map.of(A2aAgents.SETTING, setting), logged::add);

        assertThat(names(source.current())).containsExactly("travel");
        assertThat(logged).singleElement().asString().startsWith("E_AGENTS_INVALID");

        A2aAgents.none().with(agent("travel")).with(agent("helper")).writeFile(home.resolve(A2aAgents.FILE));
        assertThat(source.current().find("travel").orElseThrow().agent().card().toString())
                .contains("/a2a/set/");
        assertThat(names(source.current())).containsExactlyInAnyOrder("travel", "helper");
    }

    @Test
    void aMalformedSettingIsRefusedAtOnce() {
        assertThatThrownBy(() -> A2aAgentsSource.of(home, Map.of(A2aAgents.SETTING, "[{}]"), logged::add))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_AGENTS_INVALID));
    }
}
