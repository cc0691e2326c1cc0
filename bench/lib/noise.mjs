// The machine is shared (other engineers' tests, builds, browsers): every timed window records how much CPU
// processes outside the bench used meanwhile, and can first wait for a quiet moment.
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { trackedGroups } from './procs.mjs';
import { sleep } from './util.mjs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux
const ownGroup = (() => {
  try {
    return readStat(process.pid)?.pgrp;
  } catch {
    return undefined;
  }
})();

function readStat(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const comm = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // after "pid (comm) ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
  return {
    comm,
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    ticks: Number(fields[11]) + Number(fields[12]),
  };
}

/** CPU ticks per pid of every process that is not the bench's (nor started by it). */
function snapshot() {
  const ours = new Set([...trackedGroups(), ownGroup]);
  const ticks = new Map();
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return { at: performance.now(), ticks, available: false };
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readStat(name);
      // kernel threads (children of kthreadd) mostly work for us (writeback of the bench's own files)
      const kernel = stat.ppid === 2 || Number(name) === 2;
      if (!kernel && !ours.has(stat.pgrp) && Number(name) !== process.pid)
        ticks.set(name, { ticks: stat.ticks, comm: stat.comm });
    } catch {
      /* exited meanwhile */
    }
  }
  return { at: performance.now(), ticks, available: true };
}

/** Starts watching; stop() returns { otherCpuSeconds, wallSeconds, share } (share of all cores). */
export function watchOthers() {
  const before = snapshot();
  return {
    stop() {
      const after = snapshot();
      let ticks = 0;
      const busiest = [];
      for (const [pid, t] of after.ticks) {
        const used = t.ticks - (before.ticks.get(pid)?.ticks ?? 0);
        ticks += used;
        if (used > 0) busiest.push({ pid: Number(pid), comm: t.comm, cpuSeconds: used / TICKS_PER_SECOND });
      }
      busiest.sort((a, b) => b.cpuSeconds - a.cpuSeconds);
      const wallSeconds = (after.at - before.at) / 1000;
      const otherCpuSeconds = Math.max(0, ticks) / TICKS_PER_SECOND;
      return {
        otherCpuSeconds: Math.round(otherCpuSeconds * 10) / 10,
        wallSeconds: Math.round(wallSeconds * 10) / 10,
        share: before.available ? otherCpuSeconds / (wallSeconds * os.cpus().length) : NaN,
        busiest: busiest.slice(0, 3),
      };
    },
  };
}

/**
 * Waits (at most maxWaitMs) until processes outside the bench use under `threshold` of the machine over
 * one second. Resolves { waitedMs, quiet, share }.
 */
export async function waitForQuiet({ threshold = 0.1, maxWaitMs = 20_000 } = {}) {
  const start = performance.now();
  for (;;) {
    const watch = watchOthers();
    await sleep(1000);
    const { share } = watch.stop();
    const waitedMs = Math.round(performance.now() - start);
    if (!(share >= threshold)) return { waitedMs, quiet: true, share };
    if (waitedMs >= maxWaitMs) return { waitedMs, quiet: false, share };
  }
}

/** CPU seconds (user + system) used so far by the live processes of one process group. */
export function groupCpuSeconds(pgid) {
  let ticks = 0;
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return NaN;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readStat(name);
      if (stat.pgrp === pgid) ticks += stat.ticks;
    } catch {
      /* exited meanwhile */
    }
  }
  return ticks / TICKS_PER_SECOND;
}

/**
 * A timed window: first wait (when `waitQuiet`) for the machine to calm down, then run `fn` and record
 * what other processes used meanwhile. Returns `{ value, noise }` (`noise.share`: 'Others CPU').
 */
export async function timedWindow({ waitQuiet, log }, fn) {
  if (waitQuiet) {
    const quiet = await waitForQuiet();
    if (!quiet.quiet)
      log(`(machine busy: others use ${Math.round(quiet.share * 100)}% of it; measuring anyway)`);
  }
  const watch = watchOthers();
  const value = await fn();
  return { value, noise: watch.stop() };
}
