// Measurement only (issue 13): what a V8 heap snapshot holds, by package. Code (closures, their
// SharedFunctionInfo, bytecode, scope infos, feedback) and a script's source are counted to the script
// they belong to; every other object to the package of the closest closure that dominates it (else
// "(data)"). Prints MB per package, or with two snapshots the difference (second minus first).
//   node bench/rss13/snapshot-summary.mjs a.heapsnapshot [b.heapsnapshot]
import { readFileSync } from 'node:fs';

function load(file) {
  const snap = JSON.parse(readFileSync(file, 'utf8'));
  const m = snap.snapshot.meta;
  const nf = m.node_fields.length;
  const ef = m.edge_fields.length;
  const nTypes = m.node_types[0];
  const eTypes = m.edge_types[0];
  const iType = m.node_fields.indexOf('type');
  const iName = m.node_fields.indexOf('name');
  const iSize = m.node_fields.indexOf('self_size');
  const iEdges = m.node_fields.indexOf('edge_count');
  const eType = m.edge_fields.indexOf('type');
  const eName = m.edge_fields.indexOf('name_or_index');
  const eTo = m.edge_fields.indexOf('to_node');
  const { nodes, edges, strings } = snap;
  const count = nodes.length / nf;
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, e = 0; i < count; i++) {
    firstEdge[i] = e;
    e += nodes[i * nf + iEdges] * ef;
  }
  firstEdge[count] = edges.length;
  const type = (i) => nTypes[nodes[i * nf + iType]];
  const name = (i) => strings[nodes[i * nf + iName]];
  const size = (i) => nodes[i * nf + iSize];
  const edgeName = (e) => {
    const t = eTypes[edges[e + eType]];
    return t === 'element' || t === 'hidden' ? edges[e + eName] : strings[edges[e + eName]];
  };
  function* out(i) {
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += ef)
      yield { to: edges[e + eTo] / nf, name: edgeName(e), type: eTypes[edges[e + eType]] };
  }
  return { count, type, name, size, out };
}

function packageOf(url) {
  if (!url) return '(no script)';
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (m) return m[1];
  const d = url.match(/dist\/node\/(server|common)\/(?:features\/|plugins\/)?([^/]+)/);
  if (d) return `app:${d[1]}/${d[2].replace(/\.js$/, '')}`;
  if (url.startsWith('node:')) return 'node:internal';
  return url.length > 60 ? `${url.slice(0, 60)}…` : url;
}

function summarize(file) {
  const s = load(file);
  const owner = new Array(s.count).fill(null);
  // Scripts (code objects with a source): their name is the URL; the source and line ends are theirs.
  for (let i = 0; i < s.count; i++) {
    if (s.type(i) !== 'code') continue;
    let source = -1;
    for (const e of s.out(i)) if (e.name === 'source') source = e.to;
    if (source < 0) continue;
    owner[i] = packageOf(s.name(i));
    owner[source] ??= owner[i];
    for (const e of s.out(i)) if (e.name === 'line_ends') owner[e.to] ??= owner[i];
  }
  // SharedFunctionInfos name their script; their bytecode, scope info and metadata (and what those hold:
  // constant pools, position tables) are the script's too; closures follow their SharedFunctionInfo.
  const sfiPkg = new Map();
  for (let i = 0; i < s.count; i++) {
    if (s.type(i) !== 'code') continue;
    for (const e of s.out(i))
      if (e.name === 'script_or_debug_info' && owner[e.to]) sfiPkg.set(i, owner[e.to]);
  }
  const claim = (node, pkg, depth) => {
    for (const f of s.out(node)) {
      const t = s.type(f.to);
      if (owner[f.to] || f.type === 'weak' || (t !== 'code' && t !== 'array' && t !== 'hidden')) continue;
      if (sfiPkg.has(f.to)) continue;
      owner[f.to] = pkg;
      if (depth > 0) claim(f.to, pkg, depth - 1);
    }
  };
  for (const [sfi, pkg] of sfiPkg) {
    owner[sfi] ??= pkg;
    claim(sfi, pkg, 2);
  }
  // zod schema objects (anything with a `_zod`): what they dominate (their per-instance methods, their
  // internals) is counted to them, apart from the code.
  for (let i = 0; i < s.count; i++) {
    if (s.type(i) !== 'object') continue;
    for (const e of s.out(i)) if (e.name === '_zod' && e.type === 'property') owner[i] = 'zod schema objects';
  }
  // Closures go to what dominates them (below); their feedback is their code's.
  for (let i = 0; i < s.count; i++) {
    if (s.type(i) !== 'closure') continue;
    let pkg = null;
    for (const e of s.out(i)) if (e.name === 'shared' && sfiPkg.has(e.to)) pkg = sfiPkg.get(e.to);
    if (pkg)
      for (const e of s.out(i))
        if (e.name === 'feedback_cell') {
          owner[e.to] ??= pkg;
          claim(e.to, pkg, 1);
        }
  }
  // The rest: dominators (Cooper–Harvey–Kennedy) from the root (node 0), then the closest owned dominator.
  const order = [];
  const post = new Int32Array(s.count).fill(-1);
  const preds = Array.from({ length: s.count }, () => []);
  const seen = new Uint8Array(s.count);
  const stack = [[0, s.out(0)]];
  seen[0] = 1;
  while (stack.length) {
    const top = stack[stack.length - 1];
    const n = top[1].next();
    if (n.done) {
      post[top[0]] = order.length;
      order.push(top[0]);
      stack.pop();
      continue;
    }
    if (n.value.type === 'weak' || n.value.type === 'shortcut') continue;
    preds[n.value.to].push(top[0]);
    if (!seen[n.value.to]) {
      seen[n.value.to] = 1;
      stack.push([n.value.to, s.out(n.value.to)]);
    }
  }
  const idom = new Int32Array(s.count).fill(-1);
  idom[0] = 0;
  const intersect = (a, b) => {
    while (a !== b) {
      while (post[a] < post[b]) a = idom[a];
      while (post[b] < post[a]) b = idom[b];
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let k = order.length - 2; k >= 0; k--) {
      const v = order[k];
      let d = -1;
      for (const p of preds[v]) if (idom[p] !== -1) d = d === -1 ? p : intersect(p, d);
      if (d !== -1 && idom[v] !== d) {
        idom[v] = d;
        changed = true;
      }
    }
  }
  const totals = new Map();
  let all = 0;
  for (let k = order.length - 1; k >= 0; k--) {
    const v = order[k];
    if (owner[v] === null && v !== 0) owner[v] = owner[idom[v]] ?? null;
    let key = owner[v] ?? `(data) ${s.type(v)}`;
    if (process.env.DETAIL && key === `(data) ${process.env.DETAIL}`) {
      // Which kind of object holds it: the dominator's type and name, a few levels up.
      const chain = [];
      for (let d = idom[v], k = 0; k < 3 && d > 0; d = idom[d], k++)
        chain.push(`${s.type(d)}:${s.name(d).slice(0, 40)}`);
      key += ` <- ${chain.join(' <- ')}`;
    }
    totals.set(key, (totals.get(key) ?? 0) + s.size(v));
    all += s.size(v);
  }
  totals.set('TOTAL', all);
  return totals;
}

const [a, b] = process.argv.slice(2);
const ta = summarize(a);
const tb = b ? summarize(b) : null;
const keys = new Set([...ta.keys(), ...(tb?.keys() ?? [])]);
const rows = [...keys].map((k) => [k, ta.get(k) ?? 0, tb?.get(k) ?? 0]);
const mb = (x) => (x / 2 ** 20).toFixed(3);
if (tb) {
  rows.sort((x, y) => Math.abs(y[2] - y[1]) - Math.abs(x[2] - x[1]));
  for (const [k, x, y] of rows.slice(0, 45))
    console.log(`${mb(y - x).padStart(8)}  ${mb(x).padStart(7)} -> ${mb(y).padStart(7)}  ${k}`);
} else {
  rows.sort((x, y) => y[1] - x[1]);
  for (const [k, x] of rows.slice(0, 60)) console.log(`${mb(x).padStart(8)}  ${k}`);
}
