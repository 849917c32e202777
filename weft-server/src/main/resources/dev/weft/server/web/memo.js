// The chat with the user's Memo: streamed replies showing the plan's progress, approvals and questions inline.
import { post, stream } from './api.js';
import { h, pretty, toast } from './ui.js';

const chat = () => document.getElementById('chat');
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

function scroll() {
  const box = chat();
  box.scrollTop = box.scrollHeight;
}

function bubble(role, text, dir = 'auto') {
  const node = h('div', { class: `msg ${role}` }, h('p', { class: 'text', dir }, text));
  chat().append(node);
  scroll();
  return node;
}

function describe(event) {
  const data = event.data ?? {};
  switch (event.type) {
    case 'tool.called':
      return `calling ${data.tool ?? 'a tool'}`;
    case 'step.started':
      return `step ${event.nodeId} started`;
    case 'step.completed':
      return `step ${event.nodeId} done`;
    case 'step.failed':
      return `step ${event.nodeId} failed`;
    case 'step.waiting':
      return `step ${event.nodeId} waits`;
    default:
      return event.type;
  }
}

/** Memo's reply in {@code node}: its text, the plan with each step's outcome, and what it waits for. */
function showReply(node, reply) {
  const dir = reply.language === 'he' ? 'rtl' : 'auto';
  node.classList.remove('pending');
  node.dataset.status = reply.status;
  node.dataset.run = reply.runId;
  node.replaceChildren(h('p', { class: 'text', dir, lang: reply.language }, reply.reply || `(${reply.status.toLowerCase()})`));
  const steps = reply.plan?.plan ?? [];
  if (steps.length) {
    const results = new Map((reply.results ?? []).map((r) => [r.stepId, r]));
    const waiting = new Set((reply.resolutions ?? []).filter(() => reply.status === 'WAITING').map((r) => r.stepId));
    node.append(h('details', { class: 'plan' },
      h('summary', {}, `Plan: ${steps.length} step${steps.length === 1 ? '' : 's'} · ${reply.status.toLowerCase()}`),
      h('ol', {}, steps.map((s) => {
        const r = results.get(s.id);
        const state = waiting.has(s.id) && !r ? 'waiting' : !r ? 'pending' : r.success ? 'done' : 'failed';
        return h('li', { class: `step ${state}` }, `${s.capability}.${s.action}`, h('span', { class: 'muted' }, ` ${state}`));
      })),
      h('p', {}, h('a', { href: `#/runs/${reply.runId}` }, 'open the run'))));
  }
  if (reply.status === 'WAITING') {
    for (const r of reply.resolutions ?? []) {
      if (r.type === 'clarify') node.append(question(reply, r));
    }
    const approvals = (reply.resolutions ?? []).filter((r) => r.type === 'execute');
    if (approvals.length) node.append(approval(reply, approvals));
  }
  scroll();
}

function approval(reply, steps) {
  // The card speaks the reply's language, as the question above it does.
  const he = reply.language === 'he';
  const card = h('div', { class: 'approval', 'data-run': reply.runId, dir: he ? 'rtl' : 'auto' },
    h('p', { class: 'label' }, he ? 'נדרש אישורך:' : 'Needs your approval:'),
    // What will change, in words and in the user's language; the call itself behind a toggle.
    steps.map((s) => h('div', { class: 'call' },
      h('p', { class: 'says', dir: reply.language === 'he' ? 'rtl' : 'auto', lang: reply.language }, s.says || s.functionName),
      h('details', { class: 'raw' },
        h('summary', {}, reply.language === 'he' ? 'פרטים' : 'details'),
        h('code', {}, s.functionName), h('pre', { dir: 'ltr' }, pretty(s.args))))));
  const decide = async (verb) => {
    card.querySelectorAll('button').forEach((b) => (b.disabled = true));
    try {
      const next = await post(`/api/runs/${reply.runId}/${verb}`, {});
      const done = verb === 'approve' ? (he ? 'אושר.' : 'Approved.') : (he ? 'נדחה.' : 'Rejected.');
      card.replaceChildren(h('p', { class: 'label' }, done));
      showReply(bubble('memo', ''), next);
    } catch (e) {
      card.append(h('p', { class: 'error' }, e.message));
    }
  };
  card.append(h('div', { class: 'actions' },
    h('button', { type: 'button', class: 'approve', onclick: () => decide('approve') }, he ? 'אישור' : 'Approve'),
    h('button', { type: 'button', class: 'reject secondary', onclick: () => decide('reject') }, he ? 'דחייה' : 'Reject')));
  return card;
}

function question(reply, r) {
  // The reply above already asks the question and lists the options; here they are to pick.
  const card = h('div', { class: 'question', 'data-run': reply.runId },
    h('p', { class: 'label' }, reply.language === 'he' ? 'בחרו:' : 'Pick one:'));
  const answer = async (text) => {
    card.querySelectorAll('button, input').forEach((b) => (b.disabled = true));
    bubble('user', text);
    try {
      showReply(bubble('memo', ''), await post(`/api/runs/${reply.runId}/answer`, { text }));
    } catch (e) {
      card.append(h('p', { class: 'error' }, e.message));
    }
  };
  card.append(h('div', { class: 'actions' }, (r.options ?? []).map((o, i) =>
    h('button', { type: 'button', class: 'secondary', dir: 'auto', onclick: () => answer(String(i + 1)) },
      typeof o === 'string' ? o : o.label ?? o.text ?? o.title ?? pretty(o)))));
  return card;
}

async function send(text) {
  bubble('user', text);
  const node = h('div', { class: 'msg memo pending' }, h('p', { class: 'text' }, '…'), h('ul', { class: 'progress' }));
  chat().append(node);
  scroll();
  const progress = node.querySelector('.progress');
  let answered = false;
  try {
    await stream('/api/memo/messages', (ev) => {
      const data = JSON.parse(ev.data);
      if (ev.event === 'reply') {
        answered = true;
        showReply(node, data);
      } else if (ev.event === 'error') {
        answered = true;
        node.replaceChildren(h('p', { class: 'text error' }, data.error?.message ?? 'failed'));
      } else {
        progress.append(h('li', {}, describe(data)));
        scroll();
      }
    }, { method: 'POST', body: { message: text, tz: zone } });
    if (!answered) node.replaceChildren(h('p', { class: 'text error' }, 'The connection closed before Memo answered.'));
  } catch (e) {
    node.replaceChildren(h('p', { class: 'text error' }, e.message));
  }
}

export function initMemo() {
  const form = document.getElementById('chat-form');
  const input = document.getElementById('message');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    const button = document.getElementById('send');
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

/**
 * Pops up each reminder as it falls due, and each calendar conflict as a sync finds it, for as long as
 * {@code signal} is not aborted.
 */
export async function watchReminders(signal) {
  while (!signal.aborted) {
    try {
      await stream('/api/memo/notifications', (ev) => {
        if (ev.event === 'reminder.due' || ev.event === 'calendar.conflict') {
          const n = JSON.parse(ev.data);
          toast(n.notice ?? n.text, 'reminder');
        }
      }, { signal });
    } catch (e) {
      if (signal.aborted || e.status === 401) return;
    }
    await new Promise((r) => setTimeout(r, 3000));
  }
}
