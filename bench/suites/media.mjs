// A 1 GB tus upload beside nginx's WebDAV PUT (and the server's RSS meanwhile),
// Range streaming of that 1 GB file beside nginx, and upload-complete-to-playable for a 60 s 1080p H.264 MOV
// (stream copy) and a non-H.264 one (re-encode) beside the bare ffmpeg command with the same settings.
// The parts live in media/: fixtures.mjs (rows to run, the MOVs), nginx-dav.mjs (the reference server),
// upload-runs.mjs, transcode-runs.mjs, and report.mjs (the rows and their targets).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { timedWindow } from '../lib/noise.mjs';
import { ensureBuilt, root, signIn, startServer } from '../lib/server.mjs';
import { closeConnections } from '../lib/upload.mjs';
import { procStatusBytes, tempDir } from '../lib/util.mjs';
import { makeFixtures, selectedRows } from './media/fixtures.mjs';
import { runReEncode, runStreamCopy } from './media/transcode-runs.mjs';
import { runRangeStreaming, runUploadAtRest, runUploadOnPostgres, runUploads } from './media/upload-runs.mjs';

export default {
  description: '1 GB tus upload vs nginx PUT, Range streaming vs nginx, upload-complete-to-playable',
  async run({ quick, waitQuiet, log, result }) {
    const rows = selectedRows();
    const build = await ensureBuilt(log);
    result.notes.push(...build.notes);
    if (!build.serverBuilt) throw new Error('no server build: nothing to measure');
    const dist = (p) => pathToFileURL(path.join(root, 'dist/node/server', p)).href;
    const { resolveMediaTools, probe } = await import(dist('media/ffmpeg.js'));
    const { renditionArgs } = await import(dist('media/process-video.js'));
    const tools = resolveMediaTools();
    const timed = async (fn) => {
      const { value, noise } = await timedWindow({ waitQuiet, log }, fn);
      return { value, othersCpuShare: noise.share };
    };

    const work = tempDir('pickreel-bench-media-');
    const fixtures = makeFixtures({ tools, rows, quick, work, log });

    // The settings a user gets (LOG_LEVEL unset = info): the job's 'media job done' line gives its steps.
    const logFile = path.join(work, 'server.log');
    const dataDir = tempDir('pickreel-bench-data-');
    const server = await startServer({
      dataDir,
      logFile,
      readyPath: '/api/health',
    });
    const details = { bigBytes: fixtures.bigBytes, seconds: fixtures.seconds };
    result.details.media = details;
    const suite = { quick, timed, log, result, details };
    const { seconds } = fixtures;
    try {
      const { cookie } = await signIn(server.url, `benchmedia${process.pid}`);
      const run = { ...suite, server, cookie };

      // 1. The 1 GB upload beside nginx's PUT; 2. Range streaming of the same file (the stored original).
      const uploads = rows.has('upload') ? await runUploads(run, fixtures.big) : null;
      if (rows.has('range')) await runRangeStreaming(run, { ...uploads, dataDir });
      await uploads?.nginx?.stop();

      // After the Range row: a fresh 1 GB of writes just before it seemed to push it into its slow mode.
      if (rows.has('upload')) await runUploadAtRest(run, fixtures.big);

      // 3. and 4. Upload complete -> playable, by stream copy and by re-encoding.
      if (rows.has('copy')) await runStreamCopy(run, { file: fixtures.h264, seconds, logFile });
      if (rows.has('encode'))
        await runReEncode(run, { file: fixtures.mpeg4, seconds, logFile, work, tools, probe, renditionArgs });
      details.procStatus = procStatusBytes(server.pid, 'VmHWM');
    } finally {
      closeConnections();
      await server.stop();
    }

    if (rows.has('upload')) await runUploadOnPostgres(suite, { big: fixtures.big, work });
  },
};
