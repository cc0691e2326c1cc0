// The table printed at the end of a run, and the machine/git facts stored with the JSON.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { root } from './server.mjs';

export function machineInfo() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryBytes: os.totalmem(),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    hostname: os.hostname(),
  };
}

export function gitInfo() {
  const git = (...args) => {
    try {
      return execFileSync('git', args, {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
    } catch {
      return null;
    }
  };
  const status = git('status', '--porcelain', '--', 'src', 'scripts', 'package.json', 'vite.config.ts');
  return {
    commit: git('rev-parse', 'HEAD'),
    branch: git('rev-parse', '--abbrev-ref', 'HEAD'),
    dirtySources: status ? status.split('\n').length : 0,
  };
}

function pad(text, width) {
  return text + ' '.repeat(Math.max(0, width - [...text].length));
}

/**
 * rows: [{ label, display, reference, target, pass, othersCpuShare }] -> an aligned text table.
 * 'Others CPU': the largest share of the machine that processes outside the bench used during the
 * timed windows behind that row (0% = a quiet machine).
 */
export function table(rows) {
  const head = ['Measurement', 'PickReel', 'Reference', 'Target', 'Result', 'Others CPU'];
  const cells = rows.map((r) => [
    r.label,
    r.display ?? '',
    r.reference ?? '',
    r.target ?? '',
    r.pass === true ? 'ok' : r.pass === false ? 'MISSED' : r.skipped ? 'skipped' : '',
    Number.isFinite(r.othersCpuShare) ? `${Math.round(r.othersCpuShare * 100)}%` : '',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => [...c[i]].length)));
  const line = (c) =>
    c
      .map((v, i) => pad(v, widths[i]))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

/**
 * A suite's independent parts: `part(name, fn)` runs one, and a failure becomes a 'failed' row and a note
 * instead of ending the suite; `finish()` adds the noisy-machine note and throws if any part failed.
 */
export function suiteParts({ log, result }) {
  const errors = [];
  return {
    async part(name, fn) {
      try {
        await fn();
      } catch (error) {
        errors.push(`${name}: ${error.message}`);
        log(`${name} FAILED: ${error.stack ?? error}`);
        result.rows.push({ label: name, display: 'failed', skipped: true, note: error.message });
        result.notes.push(`${name} failed: ${error.message.split('\n')[0]}`);
      }
    },
    finish() {
      const busiest = Math.max(0, ...result.rows.map((r) => r.othersCpuShare).filter(Number.isFinite));
      if (busiest > 0.15) {
        result.notes.push(
          `other processes used up to ${Math.round(busiest * 100)}% of the machine during timed windows ('Others CPU'): ` +
            'those figures are unreliable (noise during the nginx run flatters the ratio); rerun on a quiet machine',
        );
      }
      if (errors.length) throw new Error(`${errors.length} part(s) failed:\n${errors.join('\n')}`);
    },
  };
}
