// The upload rows: the 1 GB tus upload beside nginx's PUT with the server's RSS, Range streaming of the stored
// original beside nginx, the same upload to the server at rest, and once more with the server on PostgreSQL.
import path from 'node:path';
import { findNginx, nginxVersion } from '../../lib/nginx.mjs';
import { scratchPostgres } from '../../lib/postgres.mjs';
import { signIn, startServer } from '../../lib/server.mjs';
import { MB, closeConnections, measureUpload, pct, restNote, warm } from '../../lib/upload.mjs';
import { fmt, tempDir } from '../../lib/util.mjs';
import { curlRange, putToNginx, startDavNginx } from './nginx-dav.mjs';
import { rangeRow, uploadAtRestRow, uploadOnPostgresRow, uploadRows } from './report.mjs';

const PG_DATABASE = 'pickreel_bench_media'; // our own; never `test` (CI's)

/**
 * 1. The 1 GB upload, with the server's RSS sampled throughout (and before, for what the upload adds).
 * Answers the first upload (the video the Range row streams) and nginx, still running for that row.
 */
export async function runUploads({ server, cookie, quick, timed, log, result, details }, big) {
  let nginx = null;
  const nginxBinary = findNginx();
  // Ours and nginx's in turn, 3 rounds (1 with --quick): this machine's speed drifts within minutes.
  if (nginxBinary) nginx = await startDavNginx(nginxBinary);
  else result.notes.push('nginx not found: the upload and streaming references are skipped');
  const rounds = [];
  for (let i = 0; i < (quick ? 1 : 3); i++) {
    const ours = await measureUpload(server, cookie, big, timed);
    let putMBps = NaN;
    let putNoise = 0;
    if (nginx) {
      const put = await timed(() => {
        warm(big);
        return putToNginx(nginx.url, big);
      });
      putMBps = put.value.size / MB / (put.value.ms / 1000);
      putNoise = put.othersCpuShare;
    }
    rounds.push({ ours, putMBps, noise: Math.max(ours.othersCpuShare, putNoise) });
    log(
      `tus upload: ${fmt.mb(ours.value.size)} in ${fmt.ms(ours.value.ms)} = ${ours.MBps.toFixed(1)} MB/s, server RSS idle ${fmt.mb(ours.idleRss)}, peak ${fmt.mb(ours.peakRss)}; nginx WebDAV PUT ${putMBps.toFixed(1)} MB/s (source cached before warming: ${pct(ours.cachedBefore)})`,
    );
  }
  const upload = rounds[0].ours; // the video the Range row streams
  if (nginx) log(`(nginx ${await nginxVersion(nginxBinary)})`);
  Object.assign(details, {
    uploadMBps: rounds.map((r) => r.ours.MBps),
    putMBps: rounds.map((r) => r.putMBps),
    idleRss: rounds.map((r) => r.ours.idleRss),
    peakRss: rounds.map((r) => r.ours.peakRss),
  });
  result.rows.push(...uploadRows({ rounds, size: upload.value.size, nginx }));
  return { upload, nginx };
}

/** 2. Range streaming of the same 1 GB (the stored original, served to its owner). */
export async function runRangeStreaming({ server, cookie, quick, timed, log, result, details }, options) {
  const { upload, nginx, dataDir } = options;
  const originalKey = `videos/${upload.value.videoId}/original.mov`;
  const originalUrl = `${server.url}/media/${originalKey}`;
  const cachedBefore = { ours: [], nginx: [] };
  const reps = quick ? 1 : 3;
  const ours = [];
  const theirs = [];
  let streamNoise = 0;
  for (let i = 0; i < reps; i++) {
    const a = await timed(() => {
      cachedBefore.ours.push(warm(path.join(dataDir, 'media', originalKey)));
      return curlRange(originalUrl, { cookie });
    });
    ours.push(a.value.bytesPerSecond / MB);
    streamNoise = Math.max(streamNoise, a.othersCpuShare);
    if (nginx) {
      const b = await timed(() => {
        cachedBefore.nginx.push(warm(nginx.file('bench.mov')));
        return curlRange(`${nginx.url}/bench.mov`);
      });
      theirs.push(b.value.bytesPerSecond / MB);
      streamNoise = Math.max(streamNoise, b.othersCpuShare);
    }
  }
  log(
    `Range streaming: ${ours.map((v) => v.toFixed(0)).join(' / ')} MB/s; nginx ${theirs.map((v) => v.toFixed(0)).join(' / ')} MB/s (file in page cache before warming: ours ${cachedBefore.ours.map(pct).join(' / ')}, nginx's ${cachedBefore.nginx.map(pct).join(' / ')})`,
  );
  Object.assign(details, { streamOurs: ours, streamNginx: theirs, streamCachedBefore: cachedBefore });
  result.rows.push(rangeRow({ size: upload.value.size, ours, theirs, nginx, noise: streamNoise }));
}

/**
 * An extra line beside the judged uploads: the same upload to the server at rest, when V8 has given back
 * the young generation that start-up grew (if its memory reducer ran within the wait: the line says).
 */
export async function runUploadAtRest({ server, cookie, timed, log, result, details }, big) {
  const rested = await measureUpload(server, cookie, big, timed, { atRest: true });
  log(
    `tus upload to the server ${restNote(rested.rest)}: ${rested.MBps.toFixed(1)} MB/s, RSS idle ${fmt.mb(rested.idleRss)}, peak ${fmt.mb(rested.peakRss)}`,
  );
  details.uploadAtRest = {
    ...rested.rest,
    idleRss: rested.idleRss,
    peakRss: rested.peakRss,
    uploadMBps: rested.MBps,
  };
  result.rows.push(uploadAtRestRow(rested, restNote(rested.rest)));
}

/** The same upload with the server on PostgreSQL: the RSS without PGlite's heap. */
export async function runUploadOnPostgres({ timed, log, result, details }, { big, work }) {
  const postgres = await scratchPostgres(PG_DATABASE);
  if (postgres.error) result.notes.push(`${postgres.error}: no RSS figure for the server on PostgreSQL`);
  if (!postgres.url) return;
  try {
    const pgServer = await startServer({
      dataDir: tempDir('pickreel-bench-data-'),
      logFile: path.join(work, 'server-postgres.log'),
      env: { DATABASE_URL: postgres.url },
      readyPath: '/api/health',
    });
    try {
      const { cookie } = await signIn(pgServer.url, `benchmediapg${process.pid}`);
      const pgUpload = await measureUpload(pgServer, cookie, big, timed);
      log(
        `same upload, server on PostgreSQL: ${pgUpload.MBps.toFixed(1)} MB/s, idle RSS ${fmt.mb(pgUpload.idleRss)}, peak ${fmt.mb(pgUpload.peakRss)}`,
      );
      details.postgres = {
        uploadMBps: pgUpload.MBps,
        idleRss: pgUpload.idleRss,
        peakRss: pgUpload.peakRss,
      };
      result.rows.push(uploadOnPostgresRow(pgUpload));
    } finally {
      closeConnections();
      await pgServer.stop();
    }
  } finally {
    await postgres.drop();
  }
}
