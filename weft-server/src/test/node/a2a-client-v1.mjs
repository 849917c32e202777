// Talks to Weft's assistants as A2A 1.0 agents with the current A2A JavaScript SDK from npm (1.x), as
// another agent would, with the SDK's default options (no legacy 0.3 mode): node a2a-client-v1.mjs, with
// WEFT_BASE (the server's URL), WEFT_KEY and WEFT_OTHER_KEY (another user's key) in the environment.
// Reads Memo's card, sends a message, reads a stream, answers a task that waits for approval, cancels
// one, and tries a wrong key and another user's task. Records the A2A-Version header every call carried.
// Prints one JSON line: what the client made of each.
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { Role, TaskState } from '@a2a-js/sdk';
import { randomUUID } from 'node:crypto';

const base = process.env.WEFT_BASE;
const versions = new Set();
const methods = new Set();

function clientFactory(key) {
  const withKey = async (url, init = {}) => {
    const headers = new Headers(init.headers ?? {});
    headers.set('Authorization', `Bearer ${key}`);
    versions.add(headers.get('A2A-Version'));
    if (typeof init.body === 'string') methods.add(JSON.parse(init.body).method);
    return fetch(url, { ...init, headers });
  };
  return new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl: withKey })],
  }));
}

const message = (text, extra = {}) => ({
  message: {
    messageId: randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: text } }], ...extra,
  },
});
const state = (status) => (status ? TaskState[status.state] : null);
const textOf = (status) => status?.message?.parts?.map((p) => p.content?.value ?? '').join('') ?? null;
const failure = (e) => ({ name: e.constructor.name, message: e.message, code: e.envelopeCode ?? null });

try {
  const memo = await clientFactory(process.env.WEFT_KEY).createFromUrl(base);
  const card = await memo.getAgentCard();

  const sent = await memo.sendMessage(message('remind me tomorrow at 9 to call the bank'));

  const events = [];
  let last = null;
  let streamed = '';
  for await (const event of memo.sendMessageStream(message('what are my reminders?'))) {
    const { $case, value } = event.payload;
    events.push($case);
    if ($case === 'artifactUpdate') streamed += value.artifact.parts.map((p) => p.content?.value ?? '').join('');
    if ($case === 'statusUpdate') last = value;
  }

  const asked = await memo.sendMessage(message('delete all my reminders'));
  const approved = await memo.sendMessage(message('yes', { taskId: asked.id, contextId: asked.contextId }));
  const approvedTask = await memo.getTask({ id: asked.id });

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
      name: card.name, interfaces: card.supportedInterfaces, streaming: card.capabilities?.streaming,
      securitySchemes: card.securitySchemes, securityRequirements: card.securityRequirements,
      skills: card.skills.map((s) => s.id), protocolVersion: memo.protocolVersion,
    },
    sent: { id: sent.id, state: state(sent.status), text: textOf(sent.status) },
    stream: { events, state: state(last?.status), text: textOf(last?.status), streamed },
    approval: {
      asked: state(asked.status), askedText: textOf(asked.status), sameTask: approved.id === asked.id,
      approved: state(approved.status), approvedText: textOf(approved.status), got: state(approvedTask.status),
      history: approvedTask.history.length,
    },
    cancel: { waiting: state(waiting.status), cancelled: state(cancelled.status), afterCancel: state(afterCancel.status) },
    wrongKey,
    otherUser,
    concierge: { name: conciergeCard.name, url: conciergeCard.supportedInterfaces?.[0]?.url ?? null },
    versions: [...versions],
    methods: [...methods],
  }));
} catch (e) {
  console.log(JSON.stringify({ error: failure(e), stack: e.stack }));
  process.exitCode = 1;
}
