// HTTP load generation: wrk when it is on PATH (C, light on a 2-core machine), else autocannon if it is
// already installed (never installed by the bench). Same tool and settings for every target of a run.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runBounded } from './procs.mjs';
import { root } from './server.mjs';

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  return null;
}

/** { name: 'wrk' | 'autocannon', binary } or null. */
export function findLoadTool() {
  const wrk = process.env.WRK_PATH ?? onPath('wrk');
  if (wrk && existsSync(wrk)) return { name: 'wrk', binary: wrk };
  const local = path.join(root, 'node_modules/.bin/autocannon');
  const autocannon = existsSync(local) ? local : onPath('autocannon');
  if (autocannon) return { name: 'autocannon', binary: autocannon };
  return null;
}

const UNIT_MS = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

function toMs(text) {
  const match = /^([\d.]+)(us|ms|s|m|h)$/.exec(text.trim());
  return match ? Number(match[1]) * UNIT_MS[match[2]] : NaN;
}

/** Parses `wrk --latency` output. */
export function parseWrk(out) {
  const num = (re) => {
    const m = re.exec(out);
    return m ? Number(m[1]) : 0;
  };
  const pct = (p) => {
    const m = new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out);
    return m ? toMs(m[1]) : NaN;
  };
  const latency = /^\s+Latency\s+(\S+)\s+(\S+)\s+(\S+)/m.exec(out);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const statuses = /^WRK_STATUSES (\{.*\})$/m.exec(out);
  return {
    rps: num(/^Requests\/sec:\s+([\d.]+)/m) || NaN,
    requests: num(/^\s+(\d+) requests in/m),
    latencyAvgMs: latency ? toMs(latency[1]) : NaN,
    p50Ms: pct(50),
    p75Ms: pct(75),
    p90Ms: pct(90),
    p99Ms: pct(99),
    maxMs: latency ? toMs(latency[3]) : NaN,
    non2xx: num(/Non-2xx or 3xx responses:\s+(\d+)/),
    socketErrors: socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
    // Printed by the scripts of bench/lib/wrk-script.mjs: how many answers of each status.
    statuses: statuses ? JSON.parse(statuses[1]) : null,
  };
}

function parseAutocannon(out) {
  const json = JSON.parse(out.slice(out.indexOf('{')));
  return {
    rps: json.requests.average,
    requests: json.requests.total,
    latencyAvgMs: json.latency.average,
    p50Ms: json.latency.p50,
    p75Ms: json.latency.p75,
    p90Ms: json.latency.p90,
    p99Ms: json.latency.p99,
    maxMs: json.latency.max,
    non2xx: json.non2xx ?? 0,
    socketErrors: (json.errors ?? 0) + (json.timeouts ?? 0),
  };
}

/**
 * One load run. settings: { connections, threads, seconds, headers: {name: value}, script, scriptArgs }.
 * `script`: a wrk Lua file (bench/lib/wrk-script.mjs) choosing each request's path and headers; wrk only.
 * Resolves the parsed figures plus the tool's raw output; throws when the tool fails.
 */
export async function runLoad(
  tool,
  url,
  { connections = 50, threads = 2, seconds = 10, headers = {}, script, scriptArgs = [] } = {},
) {
  if (new URL(url).hostname !== '127.0.0.1') throw new Error('load only goes to 127.0.0.1');
  if (script && tool.name !== 'wrk') throw new Error(`a scripted load needs wrk, not ${tool.name}`);
  const headerArgs = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]);
  const scriptPart = script ? ['-s', script] : [];
  const argsPart = scriptArgs.length ? ['--', ...scriptArgs.map(String)] : [];
  const args =
    tool.name === 'wrk'
      ? [
          '-t',
          String(threads),
          '-c',
          String(connections),
          '-d',
          `${seconds}s`,
          '--timeout',
          '5s',
          '--latency',
          ...headerArgs,
          ...scriptPart,
          url,
          ...argsPart,
        ]
      : ['-c', String(connections), '-w', String(threads), '-d', String(seconds), '-j', ...headerArgs, url];
  const result = await runBounded(tool.binary, args, { timeoutMs: (seconds + 20) * 1000 });
  if (result.code !== 0 || result.timedOut) {
    throw new Error(
      `${tool.name} failed (code ${result.code}${result.timedOut ? ', timed out' : ''}): ${result.stderr || result.stdout}`,
    );
  }
  const parsed = tool.name === 'wrk' ? parseWrk(result.stdout) : parseAutocannon(result.stdout);
  return {
    ...parsed,
    tool: tool.name,
    args: args.map((a) => (a.startsWith('Cookie:') ? 'Cookie: [session]' : a)),
    raw: result.stdout,
  };
}
