// The chat with the shop's concierge, through the OpenAI-compatible endpoint (model "concierge"): one
// conversation per tab (its id sent as the request's "user"), Hebrew right to left, a change waiting
// for the customer's yes answered by the buttons or by typing.
import { post } from './api.js';
import { h } from './ui.js';

const SESSION = 'weft.concierge.session';
const chat = () => document.getElementById('concierge-chat');

function session() {
  let id = sessionStorage.getItem(SESSION);
  if (!id) {
    id = `web-${crypto.randomUUID()}`;
    sessionStorage.setItem(SESSION, id);
  }
  return id;
}

function scroll() {
  const box = chat();
  box.scrollTop = box.scrollHeight;
}

function hebrew(text) {
  return /[\u05d0-\u05ea]/.test(text);
}

function bubble(role, text) {
  const node = h('div', { class: `msg ${role}` }, h('p', { class: 'text', dir: hebrew(text) ? 'rtl' : 'auto' }, text));
  chat().append(node);
  scroll();
  return node;
}

function showReply(node, answer) {
  const text = answer.choices?.[0]?.message?.content ?? '';
  const weft = answer.weft ?? {};
  node.classList.remove('pending');
  node.dataset.status = weft.status ?? '';
  node.replaceChildren(
    h('p', { class: 'text', dir: hebrew(text) ? 'rtl' : 'auto' }, text),
    weft.runId ? h('p', { class: 'muted run-link' }, h('a', { href: `#/runs/${weft.runId}` }, 'open the run')) : null);
  if (weft.status === 'WAITING') {
    const he = hebrew(text);
    const card = h('div', { class: 'actions confirm' },
      h('button', { type: 'button', class: 'approve', onclick: () => answerWith(card, he ? 'כן' : 'yes') }, he ? 'כן' : 'Yes'),
      h('button', { type: 'button', class: 'reject secondary', onclick: () => answerWith(card, he ? 'לא' : 'no') }, he ? 'לא' : 'No'));
    node.append(card);
  }
  scroll();
}

async function answerWith(card, text) {
  card.querySelectorAll('button').forEach((b) => (b.disabled = true));
  await send(text);
}

async function send(text) {
  bubble('user', text);
  const node = h('div', { class: 'msg concierge pending' }, h('p', { class: 'text' }, '…'));
  chat().append(node);
  scroll();
  try {
    const answer = await post('/v1/chat/completions', {
      model: 'concierge',
      user: session(),
      messages: [{ role: 'user', content: text }],
    });
    showReply(node, answer);
  } catch (e) {
    node.classList.remove('pending');
    node.replaceChildren(h('p', { class: 'text error' }, e.message));
  }
}

export function initConcierge() {
  const form = document.getElementById('concierge-form');
  const input = document.getElementById('concierge-message');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    const button = document.getElementById('concierge-send');
    button.disabled = true;
    try {
      await send(text);
    } finally {
      button.disabled = false;
      input.focus();
    }
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      form.requestSubmit();
    }
  });
}
