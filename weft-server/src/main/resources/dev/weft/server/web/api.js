// Calls to the server's /api routes with the key kept in this tab's sessionStorage.
// Streams are read with fetch and a stream reader, not EventSource: EventSource cannot send the
// Authorization header (the key would have to go in the URL, and so into logs and history), and
// Memo's streamed reply is a POST, which EventSource cannot make at all.

const KEY = 'weft.key';

export function key() {
  return sessionStorage.getItem(KEY);
}

export function setKey(value) {
  if (value) sessionStorage.setItem(KEY, value);
  else sessionStorage.removeItem(KEY);
}

/** An answer that was not 2xx: its status and the API's error code and message. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function headers(extra = {}) {
  return { Authorization: `Bearer ${key()}`, ...extra };
}

async function fail(res) {
  let code = 'E_HTTP';
  let message = `${res.status} ${res.statusText}`;
  try {
    const body = await res.json();
    code = body.error?.code ?? code;
    message = body.error?.message ?? message;
  } catch { /* not JSON */ }
  if (res.status === 401) window.dispatchEvent(new CustomEvent('weft:unauthorized'));
  return new ApiError(res.status, code, message);
}

export async function get(path) {
  const res = await fetch(path, { headers: headers() });
  if (!res.ok) throw await fail(res);
  return res.json();
}

export async function post(path, body = {}) {
  const res = await fetch(path, {
    method: 'POST',
    headers: headers({ 'Content-Type': 'application/json' }),
    body: JSON.stringify(body),
  });
  if (!res.ok) throw await fail(res);
  return res.json();
}

/**
 * Reads server-sent events from {@code path}, calling onEvent({id, event, data}) for each, until the
 * stream ends (resolves) or {@code signal} aborts. {@code init} may make it a POST with a body.
 */
export async function stream(path, onEvent, { signal, method = 'GET', body, lastEventId } = {}) {
  const extra = { Accept: 'text/event-stream' };
  if (body !== undefined) extra['Content-Type'] = 'application/json';
  if (lastEventId) extra['Last-Event-ID'] = String(lastEventId);
  const res = await fetch(path, {
    method,
    headers: headers(extra),
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  if (!res.ok) throw await fail(res);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let event = { data: [] };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let newline;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (event.data.length) {
          onEvent({ id: event.id, event: event.event ?? 'message', data: event.data.join('\n') });
        }
        event = { data: [] };
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let val = colon < 0 ? '' : line.slice(colon + 1);
        if (val.startsWith(' ')) val = val.slice(1);
        if (field === 'data') event.data.push(val);
        else if (field === 'event') event.event = val;
        else if (field === 'id') event.id = val;
      }
    }
  }
}
