package dev.weft.workflow;

import dev.weft.plan.Risk;
import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * A remote A2A agent a plan may ask ({@code a2a.send}), known by {@code name}: where its card is, the
 * name of the setting that holds the bearer token to send (a secret never lives in a plan), and the risk
 * of sending it a message — {@link Risk#HIGH} by default, as an agent may act for the user, so each
 * message waits for a person's yes; {@link Risk#LOW} for an agent that only answers.
 *
 * @param card the card's URL, or the agent's URL it is under ({@link A2aClient#cardOf})
 */
public record A2aAgent(String name, URI card, Optional<String> tokenEnv, Risk risk) {
    public A2aAgent {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9_.-]*")) {
            throw new IllegalArgumentException(
                    "an A2A agent's name holds letters, digits, '_', '.' and '-', was '" + name + "'");
        }
        try {
            card = A2aClient.cardOf(Objects.requireNonNull(card, "card"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "A2A agent '" + name + "': its URL must be the http(s) URL of the agent or its card, was '" + card
                            + "'",
                    e);
        }
        Objects.requireNonNull(tokenEnv, "tokenEnv");
        tokenEnv.ifPresent(env -> {
            if (env.isBlank()) {
                throw new IllegalArgumentException("A2A agent '" + name + "': the token's setting name is blank");
            }
        });
        Objects.requireNonNull(risk, "risk");
    }

    /** An agent at {@code url} whose token is the setting {@code tokenEnv}, each message approved by a person. */
    public static A2aAgent of(String name, String url, String tokenEnv) {
        return new A2aAgent(name, uri(name, url), Optional.of(tokenEnv), Risk.HIGH);
    }

    /** This agent with {@code risk}. */
    public A2aAgent risk(Risk risk) {
        return new A2aAgent(name, card, tokenEnv, risk);
    }

    private static URI uri(String name, String url) {
        try {
            return URI.create(Objects.requireNonNull(url, "url"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "A2A agent '" + name + "': its URL must be the http(s) URL of the agent or its card, was '" + url
                            + "'",
                    e);
        }
    }
}
