// Talks to Weft's OpenAI-compatible endpoint with the official OpenAI client from npm, as a user's
// program would: node openai-chat.mjs plain|stream MODEL MESSAGE, with WEFT_BASE (the /v1 URL) and
// WEFT_KEY in the environment. Prints one JSON line: what the client made of the answer.
import OpenAI from 'openai';

const [mode, model, text] = process.argv.slice(2);
const client = new OpenAI({ apiKey: process.env.WEFT_KEY, baseURL: process.env.WEFT_BASE, maxRetries: 0 });
const messages = [{ role: 'user', content: text }];

try {
  if (mode === 'plain') {
    const completion = await client.chat.completions.create({ model, messages });
    const choice = completion.choices[0];
    console.log(JSON.stringify({
      content: choice.message.content, finish: choice.finish_reason, usage: completion.usage, chunks: 0,
    }));
  } else {
    const stream = await client.chat.completions.create({
      model, messages, stream: true, stream_options: { include_usage: true },
    });
    let content = '';
    let finish = null;
    let usage = null;
    let chunks = 0;
    const pieces = [];
    for await (const chunk of stream) {
      chunks++;
      for (const choice of chunk.choices) {
        if (choice.delta?.content) {
          content += choice.delta.content;
          pieces.push(choice.delta.content);
        }
        if (choice.finish_reason) finish = choice.finish_reason;
      }
      if (chunk.usage) usage = chunk.usage;
    }
    console.log(JSON.stringify({ content, finish, usage, chunks, pieces }));
  }
} catch (e) {
  console.log(JSON.stringify({ error: { status: e.status ?? null, name: e.constructor.name, message: e.message } }));
  process.exitCode = 1;
}
