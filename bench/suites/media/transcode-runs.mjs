// Upload complete -> playable: a 1080p H.264 MOV (stream copy) against its 2 s target, and a non-H.264 one
// (re-encode) beside the bare ffmpeg command the job runs, with the CPU of both.
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { runBounded } from '../../lib/procs.mjs';
import { send, tusUpload, warm } from '../../lib/upload.mjs';
import { fmt, median, sleep } from '../../lib/util.mjs';
import { reEncodeRows, streamCopyRow } from './report.mjs';

const TICKS_PER_SECOND = 100;
/** CPU seconds of a process and of the children it has waited for (fields 14-17 of /proc/<pid>/stat). */
function cpuSeconds(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    own: (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND,
    children: (Number(f[13]) + Number(f[14])) / TICKS_PER_SECOND,
  };
}

/** The server's 'media job done' log lines: where a job's time went, step by step (ms). */
function jobSteps(logFile) {
  const steps = [];
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('"media job done"')) continue;
    try {
      const entry = JSON.parse(line);
      steps.push({ videoId: entry.videoId, ms: entry.ms });
    } catch {
      // not a JSON line
    }
  }
  return steps;
}

async function waitReady(base, cookie, id, timeoutMs, pollMs = 20) {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    const res = await send(`${base}/api/videos/${id}`, { method: 'GET', headers: { cookie } });
    const video = JSON.parse(res.body);
    if (video.transcodingStatus === 'ready') return performance.now();
    if (video.transcodingStatus === 'failed') throw new Error(`processing failed: ${video.transcodingError}`);
    await sleep(pollMs);
  }
  throw new Error(`video ${id} not ready after ${timeoutMs} ms`);
}

/** 3. Upload complete -> playable: the H.264 MOV goes by stream copy. */
export async function runStreamCopy(
  { server, cookie, quick, timed, log, result, details },
  { file, seconds, logFile },
) {
  const samples = [];
  let noise = 0;
  for (let i = 0; i < (quick ? 1 : 3); i++) {
    const copy = await timed(async () => {
      const sent = await tusUpload(server.url, cookie, file);
      return {
        videoId: sent.videoId,
        ms: (await waitReady(server.url, cookie, sent.videoId, 120_000)) - sent.completedAt,
      };
    });
    samples.push(copy.value);
    noise = Math.max(noise, copy.othersCpuShare);
  }
  const steps = jobSteps(logFile);
  const stepsOf = (id) => steps.find((s) => s.videoId === id)?.ms;
  log(
    `H.264 ${seconds} s 1080p: playable ${samples.map((s) => fmt.ms(s.ms)).join(' / ')} after the upload completed; job steps (ms) ${samples.map((s) => JSON.stringify(stepsOf(s.videoId) ?? {})).join(' ')}`,
  );
  details.copy = samples.map((s) => ({ ...s, steps: stepsOf(s.videoId) }));
  result.rows.push(streamCopyRow({ seconds, samples, noise }));
}

/**
 * 4. The non-H.264 MOV is re-encoded, beside the bare ffmpeg command the job runs: the same arguments
 * (renditionArgs: one run writing the MP4 and the HLS rendition), the same input, the same kind of
 * scratch folder. What the job adds (probe, thumbnail, moves, database) counts against it.
 */
export async function runReEncode(
  { server, cookie, quick, timed, log, result, details },
  { file, seconds, logFile, work, tools, probe, renditionArgs },
) {
  const info = await probe(tools, file);
  const ourMs = [];
  const bareMs = [];
  const ourCpu = [];
  const bareCpu = [];
  const serverCpu = [];
  let noise = 0;
  let lastVideo = null;
  for (let i = 0; i < (quick ? 1 : 2); i++) {
    const encode = await timed(async () => {
      const sent = await tusUpload(server.url, cookie, file);
      const before = cpuSeconds(server.pid);
      // 100 ms polls: each poll is server work beside ffmpeg; 0.1 s is < 1 % of this row.
      const readyAt = await waitReady(server.url, cookie, sent.videoId, 900_000, 100);
      const after = cpuSeconds(server.pid);
      lastVideo = sent.videoId;
      return {
        ms: readyAt - sent.completedAt,
        cpu: after.own - before.own + after.children - before.children,
        serverCpu: after.own - before.own,
      };
    });
    ourMs.push(encode.value.ms);
    ourCpu.push(encode.value.cpu);
    serverCpu.push(encode.value.serverCpu);
    noise = Math.max(noise, encode.othersCpuShare);
    const scratch = path.join(work, `bare-${i}`);
    await mkdir(path.join(scratch, 'hls'), { recursive: true });
    const bare = await timed(async () => {
      warm(file); // the server's copy was just written, so it is cached: the same for the bare run
      const before = cpuSeconds(process.pid);
      const started = performance.now();
      const run = await runBounded(tools.ffmpeg, renditionArgs(file, info), {
        cwd: scratch,
        timeoutMs: 900_000,
      });
      if (run.code !== 0) throw new Error(`bare ffmpeg failed: ${run.stderr.slice(-300)}`);
      const ms = performance.now() - started;
      const after = cpuSeconds(process.pid);
      return { ms, cpu: after.children - before.children };
    });
    bareMs.push(bare.value.ms);
    bareCpu.push(bare.value.cpu);
    noise = Math.max(noise, bare.othersCpuShare);
  }
  const ratio = median(ourMs) / median(bareMs);
  const steps = jobSteps(logFile).find((s) => s.videoId === lastVideo)?.ms ?? {};
  log(
    `MPEG-4 ${seconds} s 1080p: playable ${ourMs.map(fmt.ms).join(' / ')} after upload (CPU ${ourCpu.map((c) => c.toFixed(1)).join(' / ')} s, of which the server process ${serverCpu.map((c) => c.toFixed(2)).join(' / ')} s); bare ffmpeg ${bareMs.map(fmt.ms).join(' / ')} (CPU ${bareCpu.map((c) => c.toFixed(1)).join(' / ')} s); ratio ${fmt.ratio(ratio)}; last job's steps (ms) ${JSON.stringify(steps)}`,
  );
  details.encode = {
    ourMs,
    bareMs,
    ourCpuSeconds: ourCpu,
    serverOwnCpuSeconds: serverCpu,
    bareCpuSeconds: bareCpu,
    steps,
    args: renditionArgs(file, info),
  };
  result.rows.push(...reEncodeRows({ seconds, ourMs, bareMs, ourCpu, bareCpu, noise }));
}
