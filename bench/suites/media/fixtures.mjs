// The media suite's rows to run and the MOVs they need, made with ffmpeg at run time.
import path from 'node:path';
import { MB, makeLargeMov, makeMov } from '../../lib/upload.mjs';
import { fmt } from '../../lib/util.mjs';

const ROWS = ['upload', 'range', 'copy', 'encode'];

/** BENCH_MEDIA_ROWS=copy,encode runs only those rows (range needs upload, which it then runs too). */
export function selectedRows() {
  const wanted = (process.env.BENCH_MEDIA_ROWS ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  const unknown = wanted.filter((r) => !ROWS.includes(r));
  if (unknown.length)
    throw new Error(`BENCH_MEDIA_ROWS: unknown ${unknown.join(', ')}; rows: ${ROWS.join(', ')}`);
  const rows = new Set(wanted.length ? wanted : ROWS);
  if (rows.has('range')) rows.add('upload');
  return rows;
}

/**
 * The files of the selected rows, in `work`: a 1 GB MOV (200 MB with --quick) to upload and stream, and
 * 60 s (10 s) 1080p MOVs in H.264 (stream copy) and MPEG-4 (re-encode).
 */
export function makeFixtures({ tools, rows, quick, work, log }) {
  const bigBytes = quick ? 200 * MB : 1000 * MB;
  const seconds = quick ? 10 : 60;
  log(
    `making fixtures: ${[
      rows.has('upload') && `a ${fmt.mb(bigBytes)} MOV`,
      rows.has('copy') && `${seconds} s 1080p H.264 MOV`,
      rows.has('encode') && `${seconds} s 1080p MPEG-4 MOV`,
    ]
      .filter(Boolean)
      .join(', ')} (ffmpeg ${tools.ffmpeg})`,
  );
  const big = path.join(work, 'big.mov');
  if (rows.has('upload')) makeLargeMov(tools.ffmpeg, big, bigBytes);
  const h264 = path.join(work, 'h264-1080p.mov');
  if (rows.has('copy')) makeMov(tools.ffmpeg, h264, { seconds, size: '1920x1080', h264: true });
  const mpeg4 = path.join(work, 'mpeg4-1080p.mov');
  if (rows.has('encode')) makeMov(tools.ffmpeg, mpeg4, { seconds, size: '1920x1080', h264: false });
  return { bigBytes, seconds, big, h264, mpeg4 };
}
