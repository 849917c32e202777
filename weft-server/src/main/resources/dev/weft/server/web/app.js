// The page: logs in with an API key, then shows an assistant's chat (a tab for each the server's
// registry lists) or the runs, by the URL's #fragment.
import { ApiError, get, key, setKey } from './api.js';
import { initMemo, watchReminders } from './memo.js';
import { loadAssistants, showTabs } from './assistants.js';
import { hideList, initRuns, leaveRun, showList, showRun } from './runs.js';
import { toast } from './ui.js';

const $ = (id) => document.getElementById(id);
let reminders = null;
/** The assistants' names, as the registry listed them once this key logged in; null before. */
let assistants = null;
/** The tab the page opens on: the key's user's own assistant (one that serves no shop's customers), else the first. */
let home = 'runs';
/** The registry's answer being awaited, so that routing again meanwhile asks once. */
let loading = null;

/** Reads the registry once for this key and makes its tabs; then routes again. */
async function tabs() {
  try {
    const listed = await loadAssistants();
    showTabs(listed);
    assistants = listed.map((a) => a.name);
    home = (listed.find((a) => !a.servesCustomers) ?? listed[0])?.name ?? 'runs';
  } catch (e) {
    assistants = [];
    home = 'runs';
    if (e.status !== 401) toast(`The assistants could not be listed: ${e.message}`, 'error');
  }
  route();
}

function show(view) {
  for (const section of document.querySelectorAll('main > .view')) section.hidden = section.id !== view;
  for (const link of document.querySelectorAll('#nav a')) {
    link.classList.toggle('active', link.dataset.view === view || (view === 'run' && link.dataset.view === 'runs'));
  }
  document.body.dataset.view = view;
}

function route() {
  if (!key()) {
    $('nav').hidden = true;
    $('logout').hidden = true;
    $('who').textContent = '';
    hideList();
    leaveRun();
    show('login');
    $('key').focus();
    return;
  }
  if (assistants === null) {
    loading ??= tabs().finally(() => (loading = null));
    return;
  }
  $('nav').hidden = false;
  $('logout').hidden = false;
  const hash = location.hash || `#/${home}`;
  const run = hash.match(/^#\/runs\/([^/]+)$/);
  const named = hash.match(/^#\/([^/]+)$/);
  const assistant = named && assistants.includes(decodeURIComponent(named[1])) ? decodeURIComponent(named[1]) : null;
  if (run) {
    show('run');
    showRun(decodeURIComponent(run[1]));
  } else if (hash.startsWith('#/runs')) {
    leaveRun();
    show('runs');
    showList();
  } else if (assistant || assistants.includes(home)) {
    const name = assistant ?? home;
    hideList();
    leaveRun();
    show(name);
    ($(`${name}-message`) ?? $('message'))?.focus();
  } else {
    hideList();
    leaveRun();
    show('runs');
    showList();
  }
}

function startReminders() {
  reminders?.abort();
  reminders = new AbortController();
  watchReminders(reminders.signal);
}

function logOut(message = '') {
  setKey(null);
  assistants = null;
  reminders?.abort();
  reminders = null;
  $('login-error').textContent = message;
  route();
}

async function logIn(value) {
  setKey(value);
  try {
    await get('/api/runs?limit=1');
  } catch (e) {
    setKey(null);
    $('login-error').textContent = e instanceof ApiError && e.status === 401 ? 'That key is not known, or was revoked.' : e.message;
    return;
  }
  $('login-error').textContent = '';
  $('key').value = '';
  assistants = null;
  startReminders();
  route();
}

$('login-form').addEventListener('submit', (e) => {
  e.preventDefault();
  logIn($('key').value.trim());
});
$('logout').addEventListener('click', () => logOut());
window.addEventListener('weft:unauthorized', () => logOut('The key was refused; log in again.'));
window.addEventListener('hashchange', route);
// A browser opens at most six connections to one server, and each tab showing the page holds one or two
// streams: a tab that is hidden or left lets go of its streams, and takes them up again when shown.
function pause() {
  reminders?.abort();
  reminders = null;
  leaveRun();
}
function resume() {
  if (!key()) return;
  if (!reminders) startReminders();
  route();
}
window.addEventListener('pagehide', pause);
window.addEventListener('pageshow', (e) => e.persisted && resume());
document.addEventListener('visibilitychange', () => (document.hidden ? pause() : resume()));
initMemo();
initRuns();
if (key()) startReminders();
route();
