// Talks to Weft's /v1/responses with the official OpenAI client from npm, as a user's program would:
// node openai-responses.mjs MODEL, with WEFT_BASE (the /v1 URL), WEFT_KEY and WEFT_OTHER_KEY (another
// user's key) in the environment. Asks for a reminder (plain), asks for all reminders to be deleted
// (streamed, so the assistant asks first), says yes by previous_response_id, reads the first response
// back, and tries to read it with the other user's key. Prints one JSON line: what the client made of it.
import OpenAI from 'openai';

const [model] = process.argv.slice(2);
const client = new OpenAI({ apiKey: process.env.WEFT_KEY, baseURL: process.env.WEFT_BASE, maxRetries: 0 });
const other = new OpenAI({ apiKey: process.env.WEFT_OTHER_KEY, baseURL: process.env.WEFT_BASE, maxRetries: 0 });
const wrong = new OpenAI({ apiKey: 'weft_not-a-key', baseURL: process.env.WEFT_BASE, maxRetries: 0 });

const failure = (e) => ({ status: e.status ?? null, name: e.constructor.name, message: e.message });

try {
  const plain = await client.responses.create({
    model, input: 'remind me tomorrow at 9 to call the bank', instructions: 'Be brief.',
  });

  const stream = await client.responses.create({
    model,
    input: [{ role: 'user', content: [{ type: 'input_text', text: 'delete all my reminders' }] }],
    stream: true,
  });
  const types = [];
  const sequence = [];
  let deltas = '';
  let streamed = null;
  for await (const event of stream) {
    types.push(event.type);
    sequence.push(event.sequence_number);
    if (event.type === 'response.output_text.delta') deltas += event.delta;
    if (event.type === 'response.completed') streamed = event.response;
  }

  const yes = await client.responses.create({ model, input: 'yes', previous_response_id: streamed.id });
  const retrieved = await client.responses.retrieve(plain.id);

  let otherUser = null;
  try {
    await other.responses.retrieve(plain.id);
  } catch (e) {
    otherUser = failure(e);
  }
  let wrongKey = null;
  try {
    await wrong.responses.create({ model, input: 'hi' });
  } catch (e) {
    wrongKey = failure(e);
  }

  console.log(JSON.stringify({
    plain: { id: plain.id, status: plain.status, text: plain.output_text, usage: plain.usage, instructions: plain.instructions },
    stream: { types, sequence, deltas, id: streamed?.id, text: streamed?.output?.[0]?.content?.[0]?.text, weft: streamed?.weft },
    yes: { text: yes.output_text, previous: yes.previous_response_id, weft: yes.weft },
    retrieved: { id: retrieved.id, text: retrieved.output?.[0]?.content?.[0]?.text },
    otherUser,
    wrongKey,
  }));
} catch (e) {
  console.log(JSON.stringify({ error: failure(e) }));
  process.exitCode = 1;
}
