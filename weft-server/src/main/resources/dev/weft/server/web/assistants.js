// The assistants' tabs, read from the registry (GET /api/assistants): each assistant is a tab at #/NAME.
// One that has a view of its own on the page (Memo's, with its streamed plan) keeps it; any other gets a
// chat through its route, POST /api/assistants/NAME/messages, one conversation per browser tab (its
// session), Hebrew right to left, a reply that waits answered by its buttons or by typing.
import { get, post } from './api.js';
import { h } from './ui.js';

const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The registry's assistants, in its order: [{name, description, tools}]. */
export async function loadAssistants() {
  const answer = await get('/api/assistants');
  return answer.assistants ?? [];
}

/** A tab for each assistant before the static links (Runs), and a view for each that has none. */
export function showTabs(assistants) {
  const nav = document.getElementById('nav');
  nav.querySelectorAll('a.assistant').forEach((a) => a.remove());
  const first = nav.firstElementChild;
  for (const assistant of assistants) {
    const link = h('a', { href: `#/${assistant.name}`, class: 'assistant', title: assistant.description ?? '' }, title(assistant.name));
    link.dataset.view = assistant.name;
    nav.insertBefore(link, first);
    if (!document.getElementById(assistant.name)) document.querySelector('main').append(chatView(assistant));
  }
}

function title(name) {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function session(name) {
  const key = `weft.${name}.session`;
  let id = sessionStorage.getItem(key);
  if (!id) {
    id = `web-${crypto.randomUUID()}`;
    sessionStorage.setItem(key, id);
  }
  return id;
}

function hebrew(text) {
  return /[\u05d0-\u05ea]/.test(text);
}

/** The chat of an assistant without a view of its own: <section id=NAME> with #NAME-chat, #NAME-message, #NAME-send. */
function chatView(assistant) {
  const name = assistant.name;
  const box = h('div', { id: `${name}-chat`, class: 'chat', 'aria-live': 'polite' });
  const input = h('textarea', {
    id: `${name}-message`, name: 'message', rows: '1', dir: 'auto', required: '',
    placeholder: `Message ${title(name)}…`,
  });
  const button = h('button', { type: 'submit', id: `${name}-send` }, 'Send');
  const form = h('form', { id: `${name}-form`, class: 'composer' }, input, button);
  const section = h('section', { id: name, class: 'view assistant-view' }, box, form);
  section.hidden = true;

  const scroll = () => (box.scrollTop = box.scrollHeight);
  const bubble = (role, text) => {
    const node = h('div', { class: `msg ${role}` }, h('p', { class: 'text', dir: hebrew(text) ? 'rtl' : 'auto' }, text));
    box.append(node);
    scroll();
    return node;
  };
  const showReply = (node, reply) => {
    const text = reply.reply ?? '';
    // The reply's language decides (an English reply naming "רונית" stays left to right); guessed without it.
    const he = reply.language ? reply.language === 'he' : hebrew(text);
    node.classList.remove('pending');
    node.dataset.status = reply.status ?? '';
    node.dataset.run = reply.runId ?? '';
    node.replaceChildren(
      h('p', { class: 'text', dir: he ? 'rtl' : 'auto', lang: reply.language ?? '' }, text || `(${(reply.status ?? '').toLowerCase()})`),
      reply.runId ? h('p', { class: 'muted run-link' }, h('a', { href: `#/runs/${reply.runId}` }, 'open the run')) : null);
    if (reply.status === 'WAITING') {
      const card = h('div', { class: 'actions confirm' },
        h('button', { type: 'button', class: 'approve', onclick: () => answerWith(card, he ? 'כן' : 'yes') }, he ? 'כן' : 'Yes'),
        h('button', { type: 'button', class: 'reject secondary', onclick: () => answerWith(card, he ? 'לא' : 'no') }, he ? 'לא' : 'No'));
      node.append(card);
    }
    scroll();
  };
  const send = async (text) => {
    bubble('user', text);
    const node = h('div', { class: `msg ${name} assistant pending` }, h('p', { class: 'text' }, '…'));
    box.append(node);
    scroll();
    try {
      showReply(node, await post(`/api/assistants/${encodeURIComponent(name)}/messages`, { text, session: session(name), zone }));
    } catch (e) {
      node.classList.remove('pending');
      node.replaceChildren(h('p', { class: 'text error' }, e.message));
    }
  };
  const answerWith = async (card, text) => {
    card.querySelectorAll('button').forEach((b) => (b.disabled = true));
    await send(text);
  };
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
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
  return section;
}
