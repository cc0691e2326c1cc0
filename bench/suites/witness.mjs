// Witnesses (docs/decisions/026), on the embedded database:
//  1. a witness cosigns a checkpoint: POST /add-checkpoint against a running `npm run witness` process, a few
//     hundred successive checkpoints of a growing log, each with its consistency proof (median <= 50 ms);
//  2. posting a pick with two witnesses configured (PICK_LOG_WITNESSES) against without: p99 no slower.
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from '../lib/http.mjs';
import { groupCpuSeconds, timedWindow } from '../lib/noise.mjs';
import { suiteParts } from '../lib/report.mjs';
import { ensureBuilt, root, startServer } from '../lib/server.mjs';
import { fmt, median, sleep, tempDir } from '../lib/util.mjs';
import { percentile, registerCappers, startPosting, startsAtOf } from './pick-log/posts.mjs';
import { createBenchLog } from './witness/log.mjs';
import { buildWitness, startWitnessProcess } from './witness/process.mjs';

const TARGET_COSIGN_MEDIAN_MS = 50;
/** p99 with witnesses may exceed p99 without by this much and still count as no slower: the windows' noise. */
const P99_TOLERANCE = 1.1;
const LOG_ORIGIN = 'bench.pickreel.test/pick-log';
const POST_CLIENTS = 1;

export default {
  description:
    'witnesses: a witness process cosigning successive checkpoints; posting a pick with two witnesses and without',
  async run(ctx) {
    const { log, result } = ctx;
    const logs = tempDir('pickreel-bench-witness-logs-');
    ctx.logFile = (name) => path.join(logs, `${name}.log`);
    ctx.timed = (fn) => timedWindow(ctx, fn);
    await buildWitness(log);
    const build = await ensureBuilt(log);
    result.notes.push(...build.notes);
    const { part, finish } = suiteParts(ctx);
    await part('a witness cosigns', () => cosignPart(ctx));
    await part('posting with witnesses', () => postingPart(ctx));
    finish();
  },
};

/** One POST /add-checkpoint on a kept-alive connection, as the site's fetch sends it. */
function postCheckpoint(url, agent, body) {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(body);
    const req = http.request(
      `${url}/add-checkpoint`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': payload.length },
        timeout: 30_000,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout after 30 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** A small deterministic generator: the same growth in every run. */
function random(seed) {
  let state = seed >>> 0;
  return (limit) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 2 ** 32) * limit);
  };
}

async function cosignPart(ctx) {
  const { log, result, quick } = ctx;
  const warmup = quick ? 10 : 20;
  const count = quick ? 60 : 300;
  const benchLog = await createBenchLog('bench.witness.test/pick-log');
  const witness = await startWitnessProcess({ name: 'w1.bench.test/pickreel', logKey: benchLog.verifierKey });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    // A log of some size already, so the proofs have the length a live log's do.
    await benchLog.append(10_000);
    const first = await postCheckpoint(witness.url, agent, await benchLog.request(0));
    if (first.status !== 200) throw new Error(`the first checkpoint: ${first.status} ${first.body}`);
    const next = random(26);
    let old = benchLog.size;
    const cosign = async () => {
      // Posts append a few entries between two checkpoints; the body is made before the clock starts.
      await benchLog.append(1 + next(16));
      const body = await benchLog.request(old);
      const started = performance.now();
      const res = await postCheckpoint(witness.url, agent, body);
      const ms = performance.now() - started;
      if (res.status !== 200 || !res.body.startsWith('— '))
        throw new Error(`add-checkpoint of ${benchLog.size} answered ${res.status}: ${res.body}`);
      old = benchLog.size;
      return { ms, proofLines: body.split('\n\n')[0].split('\n').length - 1 };
    };
    for (let i = 0; i < warmup; i++) await cosign();
    const { value: run, noise } = await ctx.timed(async () => {
      const cpuBefore = groupCpuSeconds(witness.pid);
      const samples = [];
      for (let i = 0; i < count; i++) samples.push(await cosign());
      return { samples, cpuSeconds: groupCpuSeconds(witness.pid) - cpuBefore };
    });
    const latencies = run.samples.map((s) => s.ms).sort((a, b) => a - b);
    // The reference: the witness's own durable write of its state (dist/witness/witness/state.js), alone.
    const { saveWitnessState } = await import(
      pathToFileURL(path.join(root, 'dist/witness/witness/state.js')).href
    );
    const { readFile } = await import('node:fs/promises');
    const state = JSON.parse(await readFile(path.join(witness.dir, 'state.json'), 'utf8'));
    const writes = [];
    const stateCopy = path.join(witness.dir, 'state-copy.json');
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await saveWitnessState(stateCopy, state);
      writes.push(performance.now() - started);
    }
    writes.sort((a, b) => a - b);
    const figures = {
      checkpoints: count,
      fromSize: benchLog.size - run.samples.length,
      toSize: benchLog.size,
      proofLinesMedian: median(run.samples.map((s) => s.proofLines)),
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      maxMs: latencies.at(-1),
      witnessCpuMsEach: (run.cpuSeconds * 1000) / count,
      stateWriteP50Ms: percentile(writes, 0.5),
      stateWriteP99Ms: percentile(writes, 0.99),
      cosignedLines: witness.cosigned,
      noise,
    };
    result.details.cosign = figures;
    log(
      `witness: ${count} checkpoints cosigned, p50 ${fmt.ms(figures.p50Ms)}, p99 ${fmt.ms(figures.p99Ms)}, ` +
        `its CPU ${figures.witnessCpuMsEach.toFixed(2)} ms each; state write alone p50 ${fmt.ms(figures.stateWriteP50Ms)}`,
    );
    result.rows.push(
      {
        id: 'cosignMedianMs',
        label: `a witness cosigns a checkpoint: POST /add-checkpoint, ${count} successive checkpoints with proofs (${figures.proofLinesMedian} lines): median`,
        value: figures.p50Ms,
        display: `${fmt.ms(figures.p50Ms)} (p99 ${fmt.ms(figures.p99Ms)})`,
        reference: `its durable state write alone: ${fmt.ms(figures.stateWriteP50Ms)} (p99 ${fmt.ms(figures.stateWriteP99Ms)}); witness CPU ${figures.witnessCpuMsEach.toFixed(2)} ms each`,
        target: `<= ${TARGET_COSIGN_MEDIAN_MS} ms`,
        pass: figures.p50Ms <= TARGET_COSIGN_MEDIAN_MS,
        othersCpuShare: noise.share,
      },
      {
        id: 'cosignP99Ms',
        label: '  p99',
        value: figures.p99Ms,
        display: fmt.ms(figures.p99Ms),
        reference: `max ${fmt.ms(figures.maxMs)}`,
      },
    );
  } finally {
    agent.destroy();
    await witness.stop();
  }
}

/** The served checkpoint's size and how many signature lines follow it (the log's, then its witnesses'). */
async function servedCheckpoint(url) {
  const res = await request(`${url}/api/log/checkpoint`, { timeoutMs: 10_000 });
  const note = res.body.toString();
  const [, size] = note.split('\n');
  const lines = note
    .slice(note.indexOf('\n\n') + 2)
    .split('\n')
    .filter(Boolean);
  return { size: Number(size), signatureLines: lines.length };
}

async function postingPart(ctx) {
  const { log, result, quick } = ctx;
  const warmupSeconds = quick ? 1 : 3;
  const seconds = quick ? 5 : 20;
  const dataDir = tempDir('pickreel-bench-witness-data-');
  const baseEnv = { TRUST_PROXY: 'true', PICK_LOG_ORIGIN: LOG_ORIGIN };
  let server = await startServer({
    dataDir,
    logFile: ctx.logFile('server-first'),
    env: baseEnv,
    readyPath: '/api/health',
    deadlineMs: 180_000,
  });
  const witnesses = [];
  try {
    // The log's key, made at the first start: what each witness is told to witness.
    const logKey = (await request(`${server.url}/api/log/key`)).body.toString().trim();
    const cookies = await registerCappers(server.url, POST_CLIENTS, 'wcapper');
    await server.stop();
    server = null;
    for (const name of ['w1.bench.test/pickreel', 'w2.bench.test/pickreel'])
      witnesses.push(await startWitnessProcess({ name, logKey }));
    const witnessSetting = witnesses.map((w) => `${w.verifierKey}=${w.url}`).join(',');
    // Without, with, with, without: a drift of the machine over the run weighs on both alike.
    const order = quick ? ['without', 'with'] : ['without', 'with', 'with', 'without'];
    const sequence = Array.from({ length: ctx.rounds }, () => order).flat();
    const windows = [];
    for (const [i, mode] of sequence.entries()) {
      server = await startServer({
        dataDir,
        logFile: ctx.logFile(`server-${i}-${mode}`),
        env: mode === 'with' ? { ...baseEnv, PICK_LOG_WITNESSES: witnessSetting } : baseEnv,
        readyPath: '/api/health',
        deadlineMs: 180_000,
      });
      const cosignedBefore = witnesses.map((w) => w.cosigned);
      const { value: run, noise } = await ctx.timed(async () => {
        const posting = startPosting(server.url, { clients: POST_CLIENTS, cookies, startsAt: startsAtOf() });
        await sleep(warmupSeconds * 1000);
        const cpuBefore = groupCpuSeconds(server.pid);
        const witnessCpuBefore = witnesses.map((w) => groupCpuSeconds(w.pid));
        posting.measure(true);
        await sleep(seconds * 1000);
        posting.measure(false);
        const serverCpuSeconds = groupCpuSeconds(server.pid) - cpuBefore;
        const witnessCpuSeconds = witnesses.reduce(
          (sum, w, k) => sum + groupCpuSeconds(w.pid) - witnessCpuBefore[k],
          0,
        );
        return { state: await posting.stop(), serverCpuSeconds, witnessCpuSeconds };
      });
      // With witnesses, the checkpoint served once the posts stop carries both cosignatures.
      let served = await servedCheckpoint(server.url);
      if (mode === 'with') {
        const end = performance.now() + 15_000;
        while (served.signatureLines < 1 + witnesses.length && performance.now() < end) {
          await sleep(200);
          served = await servedCheckpoint(server.url);
        }
        if (served.signatureLines < 1 + witnesses.length)
          throw new Error(
            `the checkpoint of ${served.size} entries carries ${served.signatureLines - 1} cosignatures, not ${witnesses.length}`,
          );
      }
      const { state } = run;
      const sorted = [...state.latencies].sort((a, b) => a - b);
      const window = {
        mode,
        posts: state.ok,
        latencies: state.latencies,
        statuses: state.statuses,
        errors: state.errors,
        p50Ms: percentile(sorted, 0.5),
        p99Ms: percentile(sorted, 0.99),
        serverCpuMsPerPost: (run.serverCpuSeconds * 1000) / state.ok,
        witnessCpuSeconds: run.witnessCpuSeconds,
        cosigned: witnesses.map((w, k) => w.cosigned - cosignedBefore[k]),
        refused: witnesses.map((w) => w.refused),
        servedSize: served.size,
        noise,
      };
      windows.push(window);
      log(
        `posting ${mode} witnesses: ${state.ok} posts, p50 ${fmt.ms(window.p50Ms)}, p99 ${fmt.ms(window.p99Ms)}, ` +
          `server CPU ${window.serverCpuMsPerPost.toFixed(1)} ms a post; cosigned ${window.cosigned.join(' / ')}; ` +
          `statuses ${JSON.stringify(state.statuses)}; others used ${Math.round(noise.share * 100)}%`,
      );
      await server.stop();
      server = null;
    }
    const pooled = (mode) => {
      const of = windows.filter((w) => w.mode === mode);
      const latencies = of.flatMap((w) => w.latencies).sort((a, b) => a - b);
      return {
        windows: of,
        posts: latencies.length,
        p50Ms: percentile(latencies, 0.5),
        p99Ms: percentile(latencies, 0.99),
        windowP99s: of.map((w) => w.p99Ms),
        serverCpuMsPerPost: median(of.map((w) => w.serverCpuMsPerPost)),
        errors: of.reduce((n, w) => n + Object.entries(w.statuses).filter(([s]) => s !== '201').length, 0),
        othersCpuShare: Math.max(...of.map((w) => w.noise.share)),
      };
    };
    const without = pooled('without');
    const withWitnesses = pooled('with');
    const cosigned = withWitnesses.windows.reduce((n, w) => n + Math.min(...w.cosigned), 0);
    const witnessCpu = withWitnesses.windows.reduce((n, w) => n + w.witnessCpuSeconds, 0);
    const refused = Math.max(...witnesses.map((w) => w.refused));
    result.details.posting = {
      clients: POST_CLIENTS,
      warmupSeconds,
      seconds,
      order: sequence,
      windows: windows.map((w) => ({ ...w, latencies: w.latencies.length })),
    };
    if (refused) result.notes.push(`a witness refused ${refused} checkpoints of the honest log`);
    for (const w of windows)
      if (Object.keys(w.statuses).some((s) => s !== '201'))
        result.notes.push(`posting ${w.mode}: ${JSON.stringify(w.statuses)}; ${w.errors.join(' | ')}`);
    const windowP99s = (p) => p.windowP99s.map((v) => fmt.ms(v)).join(', ');
    result.rows.push(
      {
        id: 'postWithoutP99Ms',
        label: `posting a pick (POST /api/videos, ${POST_CLIENTS} capper posting one after another, ${seconds} s × ${without.windows.length}), no witnesses: p99`,
        value: without.p99Ms,
        display: `${fmt.ms(without.p99Ms)} (p50 ${fmt.ms(without.p50Ms)})`,
        reference: `${without.posts} posts; windows' p99 ${windowP99s(without)}; server CPU ${without.serverCpuMsPerPost.toFixed(1)} ms a post`,
        othersCpuShare: without.othersCpuShare,
      },
      {
        id: 'postWithP99Ms',
        label: `  with two witnesses (PICK_LOG_WITNESSES, two npm run witness processes): p99`,
        value: withWitnesses.p99Ms,
        display: `${fmt.ms(withWitnesses.p99Ms)} (p50 ${fmt.ms(withWitnesses.p50Ms)})`,
        reference:
          `${withWitnesses.posts} posts; windows' p99 ${windowP99s(withWitnesses)}; server CPU ${withWitnesses.serverCpuMsPerPost.toFixed(1)} ms a post; ` +
          `${cosigned} checkpoints cosigned by both (witnesses' CPU ${witnessCpu.toFixed(1)} s)`,
        target: `no slower at p99 than without (<= ${fmt.ms(without.p99Ms * P99_TOLERANCE)})`,
        pass:
          withWitnesses.p99Ms <= without.p99Ms * P99_TOLERANCE &&
          !withWitnesses.errors &&
          !without.errors &&
          cosigned > 0,
        othersCpuShare: withWitnesses.othersCpuShare,
      },
    );
  } finally {
    await server?.stop();
    for (const w of witnesses) await w.stop();
  }
}
