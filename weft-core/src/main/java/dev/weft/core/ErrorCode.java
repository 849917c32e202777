package dev.weft.core;

/**
 * The stable codes carried by every failure a user or caller can see. The list, with what each
 * means, is kept in {@code docs/errors.md}.
 */
public enum ErrorCode {
    /** A graph or workflow definition is wrong: it does not parse, or it does not compile. */
    E_GRAPH_INVALID,
    /** A node was visited more times than its visit limit allows. */
    E_VISIT_LIMIT,
    /** The run was cancelled. */
    E_CANCELLED,
    /** A node failed with an error of its own that carries no more specific code. */
    E_NODE_FAILED,
    /** A run cannot do what was asked in the state it is in (resume a finished run, for example). */
    E_RUN_STATE,
    /** Input given on the command line or through the API is malformed. */
    E_BAD_INPUT,
    E_PLAN_INVALID,
    E_PLAN_CYCLE,
    E_NO_RESOLVER,
    E_ARGS_INVALID,
    E_ARGS_UNRESOLVED,
    E_APPROVAL_REQUIRED,
    /**
     * A resolver's call is not what its plan step was for: another tool, an operation the step's action
     * does not allow, or a target the step did not name. Refused before anything runs.
     */
    E_STEP_MISMATCH,
    E_TOOL_FAILED,
    E_TOOL_TIMEOUT,
    E_MODEL_OUTPUT_INVALID,
    /** No model can be called: no key for the chosen provider, a rejected key, or an offline model with no rule. */
    E_MODEL_UNAVAILABLE,
    /** A run, step or other named thing does not exist. */
    E_NOT_FOUND,
    /** The run store's database cannot be used: unreachable, wrong credentials, not a database, or failing. */
    E_STORE_UNAVAILABLE,
    /**
     * The run store's database was migrated by a newer Weft than this one: its rows may be written in a
     * way this build does not read, so it is not opened. Upgrade this process.
     */
    E_SCHEMA_TOO_NEW,
    E_FORBIDDEN,
    /** The user has no mail account: add one with {@code weft memo mail add}. */
    E_MAIL_NOT_CONFIGURED,
    /** The mail server cannot be reached, refuses the login, or fails; or the account's secret cannot be read. */
    E_MAIL_UNAVAILABLE,
    /** The user has connected no calendar server: connect one with {@code weft memo calendar connect}. */
    E_CALENDAR_NOT_CONFIGURED,
    /** The calendar server cannot be reached or fails, or the connection's secret cannot be read. */
    E_CALENDAR_UNAVAILABLE,
    /** The calendar server refuses the login: the password or token is wrong, or has expired. */
    E_CALENDAR_LOGIN_FAILED,
    /**
     * The deployment's key for stored secrets is unusable ({@code WEFT_SECRET_KEY} not base64 or not 32
     * bytes, {@code WEFT_SECRET_KEY_FILE} missing), or a stored secret was encrypted with another key.
     */
    E_SECRET_KEY,
    /** A request to the server carries no API key, or one that is unknown or revoked. */
    E_UNAUTHORIZED,
    /** A request to the server is larger than it accepts. */
    E_TOO_LARGE,
    /** The server is stopping and takes no new work. */
    E_UNAVAILABLE,
    /** The server failed in a way it did not expect; the message says where. */
    E_INTERNAL,
    /** An email cannot be read: malformed MIME, no sender, or a normalized email missing a field. */
    E_EMAIL_INVALID,
    /** A messaging channel's API (Telegram's Bot API, WhatsApp's Graph API) refuses or cannot be reached. */
    E_CHANNEL_UNAVAILABLE,
    /** A queued step's worker entry failed every try and was moved to the dead-letter stream. */
    E_DEAD_LETTER,
    /** The shop's policy does not allow what a concierge tool was asked (cancel an order that is not pending, …). */
    E_POLICY,
    /** A specialist asked for tools in its second pass, which must answer from the first pass's results. */
    E_PASS2_TOOL_REQUEST,
    /** A specialist asked for a tool that is not in its list of allowed tools. */
    E_TOOL_NOT_ALLOWED,
    /** A conversation's state does not fit its JSON Schema; it was not saved. */
    E_STATE_INVALID,
    /** A specialist's reply to the customer is empty. */
    E_EMPTY_REPLY,
    /**
     * A shop customer's token ({@code X-Weft-Customer}, {@code --customer-token}) is malformed, not signed
     * with the shop's key, expired or without a subject; or a conversation a storefront vouched for got a
     * message without its customer's token.
     */
    E_CUSTOMER_TOKEN_INVALID,
    /** The shop's settings ({@code WEFT_SHOP_*}) are wrong: a key shorter than 32 bytes, a bad SMTP URL, an unknown mode. */
    E_SHOP_CONFIG_INVALID,
    /** A one-time code said back to the concierge is not the one sent, has expired, or has had its three tries. */
    E_CODE_INVALID,
    /**
     * Too many one-time codes were asked for one address, or too many wrong codes said for it, across all
     * conversations in a while: none is mailed or checked for it until the window has passed.
     */
    E_CODE_LIMIT,
    /** An OAuth sign-in ended without a grant: denied, expired, a redirect with another state, or a refused code. */
    E_AUTH_FAILED,
    /** The provider no longer honours a signed-in account's grant ({@code invalid_grant}): connect it again. */
    E_AUTH_REVOKED,
    /**
     * An effect may or may not have happened (an SMTP timeout after DATA, an MCP call cut by a lost
     * connection) and nothing can tell which: it is not made again on its own; a person decides.
     */
    E_OUTCOME_UNKNOWN,
    /**
     * A tool's call cannot finish without the user's answer (a remote A2A agent's task is {@code
     * input-required}): the step waits with the question, and the answer goes on to the call.
     */
    E_INPUT_REQUIRED,
    /**
     * A remote A2A agent refused a call: the key sent is missing or wrong (HTTP 401 or 403), or it
     * answered the message with a JSON-RPC error. Nothing was done there.
     */
    E_AGENT_REFUSED,
    /**
     * The remote A2A agents configured for the assistants ({@code $WEFT_HOME/agents.json}, {@code
     * WEFT_A2A_AGENTS}, {@code weft agents add}) do not read: a bad name, URL, key setting or risk, a
     * field the format has no place for, or text that is not JSON. Nothing is changed.
     */
    E_AGENTS_INVALID
}
