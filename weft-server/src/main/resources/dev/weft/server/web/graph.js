// Draws a run's compiled graph as inline SVG, top to bottom, and colors its nodes by step status.

const SVG = 'http://www.w3.org/2000/svg';
const W = 132;
const H = 44;
const GAP_X = 20;
const GAP_Y = 54;
const PAD = 14;

function el(name, attrs = {}, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function clip(text, max) {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

/** Rows of node ids: each node one row below the lowest of its predecessors, loops ignored. */
function layers(ids, edges) {
  const out = new Map(ids.map((id) => [id, []]));
  for (const e of edges) if (out.has(e.source) && out.has(e.target)) out.get(e.source).push(e.target);
  // Edges that close a loop (found by a depth-first walk) do not push their target down.
  const back = new Set();
  const state = new Map();
  const visit = (id) => {
    state.set(id, 1);
    for (const next of out.get(id)) {
      if (state.get(next) === 1) back.add(id + '\u0000' + next);
      else if (!state.has(next)) visit(next);
    }
    state.set(id, 2);
  };
  for (const id of ids) if (!state.has(id)) visit(id);
  const level = new Map(ids.map((id) => [id, 0]));
  for (let changed = true, rounds = 0; changed && rounds <= ids.length; rounds++) {
    changed = false;
    for (const e of edges) {
      if (!level.has(e.source) || !level.has(e.target) || back.has(e.source + '\u0000' + e.target)) continue;
      if (level.get(e.target) < level.get(e.source) + 1) {
        level.set(e.target, level.get(e.source) + 1);
        changed = true;
      }
    }
  }
  const rows = [];
  for (const id of ids) (rows[level.get(id)] ??= []).push(id);
  for (let r = 0; r < rows.length; r++) rows[r] ??= [];
  return { rows, back, level };
}

/**
 * Draws {@code graph} ({nodes, edges} from GET /api/runs/{id}/graph) into {@code container} and
 * returns a function that sets a node's status ("COMPLETED", …) as its class and data-status.
 */
export function drawGraph(container, graph) {
  container.replaceChildren();
  const ids = [];
  const info = new Map();
  if (graph.edges.some((e) => e.source === 'START')) {
    ids.push('START');
    info.set('START', { id: 'START', name: 'start', terminal: true });
  }
  for (const n of graph.nodes) {
    ids.push(n.id);
    info.set(n.id, n);
  }
  if (graph.edges.some((e) => e.target === 'END')) {
    ids.push('END');
    info.set('END', { id: 'END', name: 'end', terminal: true });
  }
  const { rows, back, level } = layers(ids, graph.edges);
  // An edge that spans several rows passes through a gap kept for it in each row between (a waypoint),
  // so that it is not drawn through the nodes of those rows.
  const via = new Map();
  graph.edges.forEach((e, i) => {
    if (!level.has(e.source) || !level.has(e.target) || back.has(e.source + '\u0000' + e.target)) return;
    const points = [];
    for (let r = level.get(e.source) + 1; r < level.get(e.target); r++) {
      const id = `\u0001${i}:${r}`;
      rows[r].push(id);
      points.push(id);
    }
    if (points.length) via.set(i, points);
  });
  const preds = new Map();
  graph.edges.forEach((e, i) => {
    const chain = [e.source, ...(via.get(i) ?? []), e.target];
    for (let k = 1; k < chain.length; k++) (preds.get(chain[k]) ?? preds.set(chain[k], []).get(chain[k])).push(chain[k - 1]);
  });
  // One pass of ordering each row by where its predecessors are, to uncross edges.
  const x = new Map();
  rows.forEach((row, r) => {
    if (r > 0) {
      const mean = (id) => {
        const xs = (preds.get(id) ?? []).filter((p) => x.has(p)).map((p) => x.get(p));
        return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
      };
      const order = new Map(row.map((id, i) => [id, i]));
      row.sort((a, b) => mean(a) - mean(b) || order.get(a) - order.get(b));
    }
    row.forEach((id, i) => x.set(id, i - (row.length - 1) / 2));
  });
  const widest = Math.max(...rows.map((row) => row.length));
  const width = PAD * 2 + widest * W + (widest - 1) * GAP_X;
  const height = PAD * 2 + rows.length * H + (rows.length - 1) * GAP_Y;
  const pos = new Map();
  rows.forEach((row, r) => {
    for (const id of row) {
      pos.set(id, { cx: width / 2 + x.get(id) * (W + GAP_X), top: PAD + r * (H + GAP_Y) });
    }
  });

  const svg = el('svg', {
    viewBox: `0 0 ${width} ${height}`,
    width: String(width),
    class: 'graph-svg',
    role: 'img',
    'aria-label': `graph ${graph.graphId}`,
  }, container);
  const defs = el('defs', {}, svg);
  const marker = el('marker', {
    id: 'arrow', viewBox: '0 0 10 10', refX: '9', refY: '5', markerWidth: '7', markerHeight: '7', orient: 'auto',
  }, defs);
  el('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' }, marker);

  const edgeLayer = el('g', { class: 'edges' }, svg);
  graph.edges.forEach((e, i) => {
    const a = pos.get(e.source);
    const b = pos.get(e.target);
    if (!a || !b) return;
    const loop = back.has(e.source + '\u0000' + e.target) || b.top <= a.top;
    let d;
    let mid;
    if (loop) {
      const side = Math.max(a.cx, b.cx) + W / 2 + 16;
      d = `M${a.cx + W / 2},${a.top + H / 2} C${side + 30},${a.top + H / 2} ${side + 30},${b.top + H / 2} ${b.cx + W / 2},${b.top + H / 2}`;
      mid = { x: side + 8, y: (a.top + b.top) / 2 + H / 2 };
    } else {
      // Through the middle of each waypoint's gap, a smooth curve between consecutive points.
      const points = [{ x: a.cx, y: a.top + H }];
      for (const w of via.get(i) ?? []) {
        const p = pos.get(w);
        points.push({ x: p.cx, y: p.top }, { x: p.cx, y: p.top + H });
      }
      points.push({ x: b.cx, y: b.top });
      d = `M${points[0].x},${points[0].y}`;
      for (let k = 1; k < points.length; k++) {
        const p = points[k - 1];
        const q = points[k];
        const my = (p.y + q.y) / 2;
        d += ` C${p.x},${my} ${q.x},${my} ${q.x},${q.y}`;
      }
      mid = { x: (points[0].x + points[1].x) / 2, y: (points[0].y + points[1].y) / 2 };
    }
    const g = el('g', { class: `edge h-${e.handle}` }, edgeLayer);
    el('path', { d, 'marker-end': 'url(#arrow)' }, g);
    if (e.handle !== 'output') {
      const label = el('text', { x: String(mid.x + 4), y: String(mid.y + 4), class: 'handle' }, g);
      label.textContent = e.handle === 'positive' ? 'yes' : e.handle === 'negative' ? 'no' : e.handle;
    }
  });

  const nodes = new Map();
  const nodeLayer = el('g', { class: 'nodes' }, svg);
  for (const id of ids) {
    const n = info.get(id);
    const p = pos.get(id);
    const g = el('g', {
      class: n.terminal ? 'node terminal' : 'node s-pending',
      'data-node': id,
      'data-status': n.terminal ? '' : 'PENDING',
      transform: `translate(${p.cx - W / 2},${p.top})`,
    }, nodeLayer);
    const title = el('title', {}, g);
    title.textContent = n.terminal ? id : `${n.name} (${n.type})`;
    if (n.terminal) {
      el('rect', { x: String(W / 2 - 34), y: '8', width: '68', height: String(H - 16), rx: String((H - 16) / 2) }, g);
      const t = el('text', { x: String(W / 2), y: String(H / 2 + 4), class: 'name' }, g);
      t.textContent = n.name;
      continue;
    }
    el('rect', { width: String(W), height: String(H), rx: n.branch ? '14' : '7' }, g);
    const name = el('text', { x: String(W / 2), y: '19', class: 'name' }, g);
    name.textContent = clip(n.name, 17);
    const type = el('text', { x: String(W / 2), y: '35', class: 'type' }, g);
    type.textContent = clip(n.type, 20);
    nodes.set(id, g);
  }

  return (nodeId, status) => {
    const g = nodes.get(nodeId);
    if (!g) return;
    g.setAttribute('class', `node s-${status.toLowerCase()}`);
    g.setAttribute('data-status', status);
    g.querySelector('title').textContent = `${info.get(nodeId).name} (${info.get(nodeId).type}): ${status.toLowerCase()}`;
  };
}

/** The status a step event puts its node in, or null for events that do not change it. */
export function statusOf(eventType) {
  switch (eventType) {
    case 'step.started':
    case 'step.retrying':
      return 'RUNNING';
    case 'step.completed':
      return 'COMPLETED';
    case 'step.failed':
      return 'FAILED';
    case 'step.skipped':
      return 'SKIPPED';
    case 'step.waiting':
      return 'WAITING';
    default:
      return null;
  }
}
