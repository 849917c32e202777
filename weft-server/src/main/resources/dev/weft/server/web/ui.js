// Small DOM helpers shared by the views.

/** An element with attributes ({class, dir, …}, on* as listeners) and children (strings become text). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (k === 'class') node.className = v;
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function pretty(value) {
  return JSON.stringify(value, null, 2);
}

export function clock(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function when(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return d.toLocaleString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** A message that pops up for a while at the bottom of the screen. */
export function toast(text, kind = 'info') {
  const box = document.getElementById('toasts');
  const item = h('div', { class: `toast ${kind}`, role: 'status', dir: 'auto' }, text,
    h('button', { type: 'button', class: 'link', 'aria-label': 'dismiss', onclick: () => item.remove() }, '×'));
  box.append(item);
  setTimeout(() => item.remove(), 12000);
  return item;
}
