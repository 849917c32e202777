// Talks to Weft's assistants as A2A agents with the A2A JavaScript SDK from npm, as another agent
// would: node a2a-client.mjs, with WEFT_BASE (the server's URL), WEFT_KEY and WEFT_OTHER_KEY (another
// user's key) in the environment. Reads Memo's card, sends a message, reads a stream, answers a task
// that waits for approval, cancels one, and tries a wrong key and another user's task. Prints one JSON
// line: what the client made of each.
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { randomUUID } from 'node:crypto';

const base = process.env.WEFT_BASE;

function clientFactory(key) {
  const withKey = (url, init = {}) => {
    const headers = new Headers(init.headers ?? {});
    headers.set('Authorization', `Bearer ${key}`);
    return fetch(url, { ...init, headers });
  };
  return new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl: withKey })],
  }));
}

const message = (text, extra = {}) => ({
  message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...extra },
});
const textOf = (task) => task?.status?.message?.parts?.map((p) => p.text).join('') ?? null;
const failure = (e) => ({ name: e.constructor.name, message: e.message, code: e.errorResponse?.error?.code ?? null });

try {
  const memo = await clientFactory(process.env.WEFT_KEY).createFromUrl(base);
  const card = await memo.getAgentCard();

  const sent = await memo.sendMessage(message('remind me tomorrow at 9 to call the bank'));

  const events = [];
  let final = null;
  for await (const event of memo.sendMessageStream(message('what are my reminders?'))) {
    events.push(event.kind);
    if (event.kind === 'status-update' && event.final) final = event;
  }

  const asked = await memo.sendMessage(message('delete all my reminders'));
  const approved = await memo.sendMessage(message('yes', { taskId: asked.id, contextId: asked.contextId }));

  await memo.sendMessage(message('remind me on Friday at 10 to water the plants'));
  const waiting = await memo.sendMessage(message('delete all my reminders'));
  const cancelled = await memo.cancelTask({ id: waiting.id });
  const afterCancel = await memo.getTask({ id: waiting.id });

  let wrongKey = null;
  try {
    const wrong = await clientFactory('weft_not-a-key').createFromUrl(base);
    await wrong.sendMessage(message('hi'));
  } catch (e) {
    wrongKey = failure(e);
  }
  let otherUser = null;
  try {
    const other = await clientFactory(process.env.WEFT_OTHER_KEY).createFromUrl(base);
    await other.getTask({ id: sent.id });
  } catch (e) {
    otherUser = failure(e);
  }

  const concierge = await clientFactory(process.env.WEFT_KEY).createFromUrl(new URL('a2a/concierge/', base).toString());
  const conciergeCard = await concierge.getAgentCard();

  console.log(JSON.stringify({
    card: {
      name: card.name, url: card.url, protocolVersion: card.protocolVersion, streaming: card.capabilities?.streaming,
      skills: card.skills.map((s) => s.id), securitySchemes: card.securitySchemes, security: card.security,
    },
    sent: { kind: sent.kind, id: sent.id, state: sent.status.state, text: textOf(sent) },
    stream: { events, state: final?.status?.state ?? null, text: textOf(final) },
    approval: {
      asked: asked.status.state, askedText: textOf(asked), sameTask: approved.id === asked.id,
      approved: approved.status.state, approvedText: textOf(approved),
    },
    cancel: { waiting: waiting.status.state, cancelled: cancelled.status.state, afterCancel: afterCancel.status.state },
    wrongKey,
    otherUser,
    concierge: { name: conciergeCard.name, url: conciergeCard.url },
  }));
} catch (e) {
  console.log(JSON.stringify({ error: failure(e), stack: e.stack }));
  process.exitCode = 1;
}
