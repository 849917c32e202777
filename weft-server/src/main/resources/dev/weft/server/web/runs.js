// The runs: a live list, and one run with its graph, steps, events and what can be done with it.
import { get, post, stream } from './api.js';
import { drawGraph, statusOf } from './graph.js';
import { clock, h, pretty, when } from './ui.js';

const FINISHED = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);
const $ = (id) => document.getElementById(id);

// ---- the list ----------------------------------------------------------------------------------

let listTimer = null;
let listShown = '';

async function refreshList() {
  const status = $('run-filter').value;
  const page = await get(`/api/runs?limit=100${status ? `&status=${status}` : ''}`);
  // Redrawn only when something changed, so that a row is not replaced under the pointer.
  const seen = JSON.stringify([status, page.runs]);
  if (seen === listShown) return;
  listShown = seen;
  const list = $('run-list');
  list.replaceChildren(...page.runs.map((r) =>
    h('li', { 'data-run': r.runId, 'data-status': r.status },
      h('a', { href: `#/runs/${r.runId}` },
        h('span', { class: `badge s-${r.status.toLowerCase()}` }, r.status.toLowerCase()),
        h('span', { class: 'graph-id' }, r.graphId.startsWith('plan:') ? 'Memo' : r.graphId,
          r.graphId.startsWith('plan:') ? h('span', { class: 'muted' }, ' plan') : null),
        h('code', { class: 'run-id' }, r.runId.slice(0, 12)),
        h('span', { class: 'muted time' }, when(r.createdAt))))));
  $('runs-empty').hidden = page.runs.length > 0;
}

export function showList() {
  stopRun();
  listShown = '';
  const tick = async () => {
    try {
      await refreshList();
    } catch { /* shown on the next tick, or the login on 401 */ }
  };
  tick();
  clearInterval(listTimer);
  listTimer = setInterval(tick, 2000);
}

export function hideList() {
  clearInterval(listTimer);
  listTimer = null;
}

// ---- one run ---------------------------------------------------------------------------------

let current = null;

function stopRun() {
  if (current) current.abort.abort();
  current = null;
}

/** The last step of each node: its status is the node's. */
function lastSteps(run) {
  const last = new Map();
  for (const s of run.steps) last.set(s.nodeId, s);
  return last;
}

const BASIC = new Set(['order', 'nodeId', 'name', 'type', 'status', 'attempt', 'pinned', 'input', 'output', 'error',
  'durationMs', 'startedAt', 'endedAt']);

function stepItem(s) {
  const extra = Object.entries(s).filter(([k]) => !BASIC.has(k));
  return h('li', { class: `step s-${s.status.toLowerCase()}`, 'data-node': s.nodeId, 'data-status': s.status },
    h('div', { class: 'step-head' },
      h('span', { class: 'order' }, `#${s.order}`),
      h('strong', {}, s.name),
      h('span', { class: 'muted' }, s.type),
      h('span', { class: `badge s-${s.status.toLowerCase()}` }, s.status.toLowerCase()),
      s.startedAt ? h('span', { class: 'muted' }, clock(s.startedAt)) : null,
      s.durationMs !== undefined ? h('span', { class: 'muted' }, `${s.durationMs} ms`) : null,
      s.attempt > 1 ? h('span', { class: 'muted' }, `attempt ${s.attempt}`) : null,
      s.pinned ? h('span', { class: 'badge pinned' }, 'pinned') : null),
    s.error ? h('p', { class: 'error' }, `${s.error.code}: ${s.error.message}`) : null,
    h('details', {},
      h('summary', {}, ['input', 'output', ...extra.map(([k]) => k)].join(', ')),
      h('dl', {},
        s.input !== undefined ? [h('dt', {}, 'input'), h('dd', {}, h('pre', {}, pretty(s.input)))] : null,
        extra.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, h('pre', {}, pretty(v)))]),
        h('dt', {}, 'output'), h('dd', {}, h('pre', {}, pretty(s.output))))));
}

function eventItem(e) {
  return h('li', { 'data-type': e.type },
    h('span', { class: 'seq' }, e.sequence),
    h('span', { class: 'muted' }, clock(e.time)),
    h('strong', {}, e.type),
    e.nodeId ? h('span', {}, e.nodeId) : null,
    e.data && Object.keys(e.data).length ? h('code', { class: 'data' }, JSON.stringify(e.data).slice(0, 160)) : null);
}

/** What a waiting run waits for, and the buttons that decide it. */
function waitingCard(run, view) {
  const box = h('div', { class: 'card waiting' });
  for (const [key, what] of Object.entries(run.interrupts ?? {})) {
    const step = key.startsWith('step:') ? key.slice(5) : key;
    const card = h('div', { class: 'interrupt', 'data-step': step },
      h('p', { class: 'label' }, what.type === 'clarify' ? `${step} asks:` : `${step} waits for approval:`));
    if (what.message) card.append(h('p', { dir: 'auto' }, what.message));
    // The words the run's assistant asks in (the server adds them, with their language), else the question.
    const he = what.language === 'he';
    const words = what.says ?? what.question;
    if (words) card.append(h('p', { class: 'says', dir: he ? 'rtl' : 'auto', lang: what.language }, words));
    if (what.tool) {
      const call = h('div', { class: 'call', dir: 'ltr' }, h('code', {}, what.tool), h('pre', {}, pretty(what.args)));
      card.append(what.says
        ? h('details', { class: 'raw', dir: he ? 'rtl' : 'auto' }, h('summary', {}, he ? 'פרטים' : 'details'), call)
        : call);
    }
    if (!what.tool && what.input) card.append(h('details', {}, h('summary', {}, 'its input'), h('pre', {}, pretty(what.input))));
    box.append(card);
    if (what.type === 'clarify') {
      const input = h('input', { type: 'text', dir: 'auto', placeholder: 'your answer (or the option number)', 'aria-label': 'answer' });
      card.append(h('form', { class: 'inline', onsubmit: (e) => {
        e.preventDefault();
        view.act('answer', { text: input.value });
      } }, input, h('button', { type: 'submit' }, 'Answer')));
      (what.options ?? []).forEach((o, i) => card.append(h('button', { type: 'button', class: 'secondary',
        onclick: () => view.act('answer', { text: String(i + 1) }) }, `${i + 1}. ${typeof o === 'string' ? o : o.label ?? pretty(o)}`)));
    }
  }
  if (Object.values(run.interrupts ?? {}).some((w) => w.type !== 'clarify')) {
    box.append(h('div', { class: 'actions' },
      h('button', { type: 'button', id: 'approve', class: 'approve', onclick: () => view.act('approve', {}) }, 'Approve'),
      h('button', { type: 'button', id: 'reject', class: 'reject secondary', onclick: () => view.act('reject', {}) }, 'Reject')));
  }
  return box;
}

function actions(run, view) {
  const bar = [];
  if (!FINISHED.has(run.status)) {
    bar.push(h('button', { type: 'button', id: 'cancel', class: 'danger', onclick: () => view.act('cancel', {}) }, 'Cancel run'));
  }
  const completed = [...lastSteps(run).values()].filter((s) => s.status === 'COMPLETED');
  if (FINISHED.has(run.status) || run.status === 'WAITING') {
    const boxes = completed.map((s) => h('label', { class: 'check' },
      h('input', { type: 'checkbox', name: 'pin', value: s.nodeId }), ` ${s.name}`));
    bar.push(h('details', { class: 'rerun' },
      h('summary', {}, 'Rerun…'),
      h('form', { onsubmit: (e) => {
        e.preventDefault();
        const pin = [...e.target.querySelectorAll('input[name=pin]:checked')].map((b) => b.value);
        view.act('rerun', { pin }, true);
      } },
      boxes.length ? h('p', { class: 'muted' }, 'Pin (reuse this run’s output of):') : null,
      boxes,
      h('button', { type: 'submit' }, 'Rerun'))));
    if (run.steps.length) {
      const select = h('select', { name: 'from', 'aria-label': 'fork after step' },
        run.steps.map((s) => h('option', { value: String(s.order) }, `#${s.order} ${s.name}`)));
      bar.push(h('details', { class: 'fork' },
        h('summary', {}, 'Fork…'),
        h('form', { onsubmit: (e) => {
          e.preventDefault();
          view.act('fork', { from: Number(select.value) }, true);
        } }, h('label', {}, 'after step ', select), h('button', { type: 'submit' }, 'Fork'))));
    }
  }
  return bar;
}

export function showRun(runId) {
  hideList();
  stopRun();
  const view = { runId, abort: new AbortController(), paint: () => {} };
  current = view;
  $('run-title').textContent = runId;
  $('run-status').textContent = '';
  $('run-status').className = 'badge';
  delete $('run-status').dataset.status;
  $('run-error').textContent = '';
  $('run-actions').replaceChildren();
  $('run-waiting').replaceChildren();
  $('graph').replaceChildren(h('p', { class: 'muted' }, 'loading…'));
  $('steps').replaceChildren();
  $('events').replaceChildren();

  let refreshing = null;
  const refresh = async () => {
    if (current !== view) return;
    const run = await get(`/api/runs/${runId}`);
    if (current !== view) return;
    const status = $('run-status');
    status.textContent = run.status.toLowerCase();
    status.className = `badge s-${run.status.toLowerCase()}`;
    status.dataset.status = run.status;
    $('run-error').textContent = run.error ? `${run.error.code}: ${run.error.message}` : '';
    // The buttons and forms are redrawn only when what they act on changed, not to lose a choice being made.
    const acts = JSON.stringify([run.status, run.steps.map((s) => [s.nodeId, s.status]), run.interrupts ?? {}]);
    if (acts !== view.acts) {
      view.acts = acts;
      $('run-actions').replaceChildren(...actions(run, view));
      $('run-waiting').replaceChildren(...(run.status === 'WAITING' ? [waitingCard(run, view)] : []));
    }
    $('steps').replaceChildren(...run.steps.map(stepItem));
    for (const [node, s] of lastSteps(run)) view.paint(node, s.status);
  };
  const soon = () => {
    clearTimeout(refreshing);
    refreshing = setTimeout(() => refresh().catch(() => {}), 150);
  };
  view.act = async (verb, body, opens) => {
    $('run-error').textContent = '';
    document.querySelectorAll('#run-actions button, #run-waiting button').forEach((b) => (b.disabled = true));
    try {
      const answer = await post(`/api/runs/${runId}/${verb}`, body);
      if (opens && answer.runId && answer.runId !== runId) {
        location.hash = `#/runs/${answer.runId}`;
        return;
      }
    } catch (e) {
      $('run-error').textContent = e.message;
    }
    view.acts = null;
    await refresh().catch(() => {});
    if (current === view && !view.following) follow();
  };

  let last = 0;
  const follow = async () => {
    view.following = true;
    while (current === view) {
      try {
        await stream(`/api/runs/${runId}/events`, (ev) => {
          const e = JSON.parse(ev.data);
          last = Math.max(last, e.sequence);
          $('events').append(eventItem(e));
          const s = statusOf(e.type);
          if (s && e.nodeId) view.paint(e.nodeId, s);
          if (e.type.startsWith('run.') || e.type.startsWith('step.')) soon();
        }, { signal: view.abort.signal, lastEventId: last });
        break; // the run finished and every event was sent
      } catch (e) {
        if (view.abort.signal.aborted || e.status === 401 || e.status === 404) break;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    view.following = false;
    soon();
  };

  (async () => {
    try {
      const graph = await get(`/api/runs/${runId}/graph`);
      if (current !== view) return;
      view.paint = drawGraph($('graph'), graph);
    } catch (e) {
      $('graph').replaceChildren(h('p', { class: 'muted' }, `No graph to draw: ${e.message}`));
    }
    try {
      await refresh();
    } catch (e) {
      $('run-error').textContent = e.message;
      return;
    }
    follow();
  })();
}

export function leaveRun() {
  stopRun();
}

export function initRuns() {
  $('run-filter').addEventListener('change', () => refreshList().catch(() => {}));
}
