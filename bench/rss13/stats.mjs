// Measurement only (issue 13): summarises starts.mjs's JSON lines. Per build and data set: median (range)
// of VmRSS and of the heap after collections; per pair of builds: the difference of medians with a
// bootstrap 95 % interval (20,000 resamples), the Hodges–Lehmann shift and a two-sided Mann–Whitney U
// p-value (normal approximation with ties corrected).
//   node bench/rss13/stats.mjs results.jsonl [before=after ...]
import { readFileSync } from 'node:fs';

const [file, ...pairs] = process.argv.slice(2);
const rows = readFileSync(file, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
let seed = 12345;
const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
const resample = (v) => v.map(() => v[Math.floor(rand() * v.length)]);
function erfc(x) {
  const t = 1 / (1 + 0.5 * Math.abs(x));
  const y =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? y : 2 - y;
}
function mannWhitney(a, b) {
  const all = [...a.map((v) => [v, 0]), ...b.map((v) => [v, 1])].sort((x, y) => x[0] - y[0]);
  const ranks = new Array(all.length);
  let tie = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j + 1 < all.length && all[j + 1][0] === all[i][0]) j++;
    for (let k = i; k <= j; k++) ranks[k] = (i + j) / 2 + 1;
    const t = j - i + 1;
    tie += t ** 3 - t;
    i = j + 1;
  }
  const n1 = a.length,
    n2 = b.length,
    n = n1 + n2;
  const r1 = all.reduce((s, x, i) => s + (x[1] === 0 ? ranks[i] : 0), 0);
  const u = r1 - (n1 * (n1 + 1)) / 2;
  const mu = (n1 * n2) / 2;
  const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tie / (n * (n - 1))));
  const z = (Math.abs(u - mu) - 0.5) / sigma;
  return Math.min(1, erfc(z / Math.SQRT2));
}
const hl = (a, b) => median(b.flatMap((y) => a.map((x) => y - x)));
function compare(a, b) {
  const diffs = [];
  for (let i = 0; i < 20000; i++) diffs.push(median(resample(b)) - median(resample(a)));
  diffs.sort((x, y) => x - y);
  return {
    diff: median(b) - median(a),
    hl: hl(a, b),
    lo: diffs[Math.floor(0.025 * diffs.length)],
    hi: diffs[Math.floor(0.975 * diffs.length)],
    p: mannWhitney(a, b),
  };
}
const f = (x, d = 1) => x.toFixed(d);
const builds = [...new Set(rows.map((r) => r.build))];
const dataSets = [...new Set(rows.map((r) => r.data))];
const metrics = [
  ['rssMB', 'RSS 5 s after ready', 1],
  ['heapUsedMB', 'heap after collections', 2],
  ['anonMB', 'anonymous memory', 1],
  ['heapPhysicalMB', 'V8 heap physical', 1],
];
for (const data of dataSets) {
  console.log(`\n== ${data}`);
  for (const [key, label, d] of metrics) {
    const cells = builds.map((b) => {
      const v = rows.filter((r) => r.build === b && r.data === data).map((r) => r[key]);
      return `${b} (${v.length}): ${f(median(v), d)} (${f(Math.min(...v), d)}–${f(Math.max(...v), d)})`;
    });
    console.log(`${label}: ${cells.join(' | ')}`);
  }
  for (const pair of pairs) {
    const [before, after] = pair.split('=');
    for (const [key, label, d] of metrics) {
      const a = rows.filter((r) => r.build === before && r.data === data).map((r) => r[key]);
      const b = rows.filter((r) => r.build === after && r.data === data).map((r) => r[key]);
      if (!a.length || !b.length) continue;
      const c = compare(a, b);
      console.log(
        `  ${after} − ${before}, ${label}: ${c.diff >= 0 ? '+' : ''}${f(c.diff, d)} (HL ${f(c.hl, d)}; 95 % [${f(c.lo, d)}, ${f(c.hi, d)}]; p = ${c.p.toPrecision(2)})`,
      );
    }
  }
}
const loads = rows.map((r) => r.load);
console.log(
  `\nload average at the readings: ${f(Math.min(...loads))}–${f(Math.max(...loads))} (median ${f(median(loads))}); machine CPU busy in the 5 s before the reading (all processes, the server's included): median ${median(rows.map((r) => r.busyPct))} %, max ${Math.max(...rows.map((r) => r.busyPct))} %; ${rows.length} starts, ${rows.filter((r) => r.rebuilt).length} rebuilt; ${rows[0].at} – ${rows.at(-1).at}`,
);
