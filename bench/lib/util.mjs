import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks the kernel for a port nobody listens on (127.0.0.1 only). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const tempDirs = new Set();

/** A fresh temporary directory, removed when the process exits (unless BENCH_KEEP_TMP is set). */
export function tempDir(prefix = 'pickreel-bench-') {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDirs() {
  if (process.env.BENCH_KEEP_TMP) return;
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}
process.on('exit', removeTempDirs);

export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Reads a field (VmRSS, VmHWM...) of /proc/<pid>/status, in bytes; null when unavailable. */
export function procStatusBytes(pid, field) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = text.match(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export const fmt = {
  ms: (v) => (Number.isFinite(v) ? `${v >= 100 ? Math.round(v) : v.toFixed(1)} ms` : 'n/a'),
  rps: (v) => (Number.isFinite(v) ? `${Math.round(v).toLocaleString('en-US')} req/s` : 'n/a'),
  kb: (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1000).toFixed(1)} KB` : 'n/a'),
  mb: (bytes) => (Number.isFinite(bytes) ? `${(bytes / 1e6).toFixed(1)} MB` : 'n/a'),
  ratio: (v) => (Number.isFinite(v) ? v.toFixed(2) : 'n/a'),
};
