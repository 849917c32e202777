// The page: logs in with an API key, then shows Memo's chat or the runs, by the URL's #fragment.
import { ApiError, get, key, setKey } from './api.js';
import { initMemo, watchReminders } from './memo.js';
import { initConcierge } from './concierge.js';
import { hideList, initRuns, leaveRun, showList, showRun } from './runs.js';

const $ = (id) => document.getElementById(id);
let reminders = null;

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
  $('nav').hidden = false;
  $('logout').hidden = false;
  const hash = location.hash || '#/memo';
  const run = hash.match(/^#\/runs\/([^/]+)$/);
  if (run) {
    show('run');
    showRun(decodeURIComponent(run[1]));
  } else if (hash.startsWith('#/runs')) {
    leaveRun();
    show('runs');
    showList();
  } else if (hash.startsWith('#/concierge')) {
    hideList();
    leaveRun();
    show('concierge');
    $('concierge-message').focus();
  } else {
    hideList();
    leaveRun();
    show('memo');
    $('message').focus();
  }
}

function startReminders() {
  reminders?.abort();
  reminders = new AbortController();
  watchReminders(reminders.signal);
}

function logOut(message = '') {
  setKey(null);
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
initConcierge();
initRuns();
if (key()) startReminders();
route();
