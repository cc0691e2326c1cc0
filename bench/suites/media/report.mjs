// The media suite's rows: what each figure is judged against (the targets and the memory budget).
import { MB } from '../../lib/upload.mjs';
import { fmt, median } from '../../lib/util.mjs';

const TARGET_UPLOAD_RATIO = 0.5;
const TARGET_RSS_BYTES = 256 * MB; // the embedded server's budget under load or upload
const TARGET_STREAM_RATIO = 0.8;
const TARGET_COPY_READY_MS = 2000;
const TARGET_ENCODE_RATIO = 1.1;

/** The tus upload beside nginx's PUT (medians of the rounds), and the server's RSS meanwhile. */
export function uploadRows({ rounds, size, nginx }) {
  const uploadMBps = median(rounds.map((r) => r.ours.MBps));
  const putMBps = median(rounds.map((r) => r.putMBps));
  const peakRss = Math.max(...rounds.map((r) => r.ours.peakRss));
  const idleRss = rounds[0].ours.idleRss;
  return [
    {
      id: 'tusUploadMBps',
      label: `tus upload of ${fmt.mb(size)} in 2 MB chunks (median of ${rounds.length})`,
      value: uploadMBps,
      display: `${uploadMBps.toFixed(1)} MB/s`,
      reference: nginx
        ? `nginx PUT ${putMBps.toFixed(1)} MB/s, ratio ${fmt.ratio(uploadMBps / putMBps)}`
        : 'n/a',
      target: `ratio >= ${TARGET_UPLOAD_RATIO}`,
      pass: nginx ? uploadMBps / putMBps >= TARGET_UPLOAD_RATIO : undefined,
      othersCpuShare: Math.max(...rounds.map((r) => r.noise)),
    },
    {
      id: 'uploadPeakRss',
      label: 'Server RSS during those uploads (peak of 100 ms samples), embedded database',
      value: peakRss,
      display: fmt.mb(peakRss),
      reference: `idle before them ${fmt.mb(idleRss)}`,
      target: `<= ${fmt.mb(TARGET_RSS_BYTES)}`,
      pass: peakRss <= TARGET_RSS_BYTES,
    },
  ];
}

/** Range streaming of the stored original beside nginx's copy (MB/s, medians). */
export function rangeRow({ size, ours, theirs, nginx, noise }) {
  const nginxStream = nginx ? median(theirs) : NaN;
  return {
    id: 'rangeStreamMBps',
    label: `Range streaming of ${fmt.mb(size)} (curl, median of ${ours.length})`,
    value: median(ours),
    display: `${median(ours).toFixed(0)} MB/s`,
    reference: nginx
      ? `nginx ${nginxStream.toFixed(0)} MB/s, ratio ${fmt.ratio(median(ours) / nginxStream)}`
      : 'n/a',
    target: `ratio >= ${TARGET_STREAM_RATIO}`,
    pass: nginx ? median(ours) / nginxStream >= TARGET_STREAM_RATIO : undefined,
    othersCpuShare: noise,
  };
}

/** An extra, unjudged line: the same upload to the server at rest. */
export function uploadAtRestRow(rested, note) {
  return {
    id: 'uploadPeakRssAtRest',
    label: 'extra: the same upload to the server at rest (idle >= 30 s, RSS steady)',
    value: rested.peakRss,
    display: fmt.mb(rested.peakRss),
    reference: `idle before it ${fmt.mb(rested.idleRss)}, ${note}`,
    othersCpuShare: rested.othersCpuShare,
  };
}

/** The same upload with the server on PostgreSQL: the RSS without PGlite's heap. */
export function uploadOnPostgresRow(pgUpload) {
  return {
    id: 'uploadPeakRssPostgres',
    label: 'same, server on PostgreSQL (one upload)',
    value: pgUpload.peakRss,
    display: fmt.mb(pgUpload.peakRss),
    reference: `idle before it ${fmt.mb(pgUpload.idleRss)}; ${pgUpload.MBps.toFixed(1)} MB/s`,
    target: `<= ${fmt.mb(TARGET_RSS_BYTES)}`,
    pass: pgUpload.peakRss <= TARGET_RSS_BYTES,
    othersCpuShare: pgUpload.othersCpuShare,
  };
}

/** Upload complete -> playable by stream copy (median). */
export function streamCopyRow({ seconds, samples, noise }) {
  const value = median(samples.map((s) => s.ms));
  return {
    id: 'copyReadyMs',
    label: `Upload complete -> playable, ${seconds} s 1080p H.264 MOV (stream copy, median of ${samples.length})`,
    value,
    display: fmt.ms(value),
    target: `<= ${TARGET_COPY_READY_MS} ms`,
    pass: value <= TARGET_COPY_READY_MS,
    othersCpuShare: noise,
  };
}

/** Upload complete -> playable by re-encoding, beside the bare ffmpeg command, and the CPU of both. */
export function reEncodeRows({ seconds, ourMs, bareMs, ourCpu, bareCpu, noise }) {
  const ours = median(ourMs);
  const bare = median(bareMs);
  const ratio = ours / bare;
  return [
    {
      id: 'encodeReadyMs',
      label: `Upload complete -> playable, ${seconds} s 1080p MPEG-4 MOV (x264 veryfast, median of ${ourMs.length})`,
      value: ours,
      display: fmt.ms(ours),
      reference: `bare ffmpeg ${fmt.ms(bare)}, ratio ${fmt.ratio(ratio)}`,
      target: `ratio <= ${TARGET_ENCODE_RATIO}`,
      pass: ratio <= TARGET_ENCODE_RATIO,
      othersCpuShare: noise,
    },
    {
      id: 'encodeCpuSeconds',
      label: 'CPU for it: server + its children (ffprobe, ffmpeg), median',
      value: median(ourCpu),
      display: `${median(ourCpu).toFixed(1)} s`,
      reference: `bare ffmpeg ${median(bareCpu).toFixed(1)} s, ratio ${fmt.ratio(median(ourCpu) / median(bareCpu))}`,
    },
  ];
}
