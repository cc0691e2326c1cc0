// One uploaded video, from original to playable: probe, thumbnail, MP4, HLS.
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { MEDIA_FAILURES, MediaError, probe, run, type MediaTools, type ProbeResult } from './ffmpeg.js';
import {
  mediaUrl,
  versionedMediaUrl,
  videoMediaKeys,
  videoMediaPrefix,
  type MediaStorage,
} from './storage.js';
import type { VideoRecords } from './video-records.js';

/** Where the upload waits, when the request has not taken it in yet. */
export interface ProcessVideoSource {
  /** A local file to take in as the video's original first (an upload that has just finished). */
  source?: string;
  /** The same, waiting in the bucket under this key (media in S3). */
  sourceKey?: string;
}

export interface PipelineContext {
  videos: VideoRecords;
  storage: MediaStorage;
  tools: MediaTools;
  /**
   * This job's scratch folder on local disk for ffmpeg's outputs, named after the job: whatever an earlier,
   * killed run of the same job left there is cleared before this run starts.
   */
  workDir: string;
  signal?: AbortSignal;
}

/** The re-encode settings (decisions 007): what every browser plays, capped at 1080p and ~6 Mbit/s. */
export const ENCODE_VIDEO_ARGS = [
  '-c:v',
  'libx264',
  '-preset',
  'veryfast',
  '-crf',
  '23',
  '-maxrate',
  '6M',
  '-bufsize',
  '12M',
  '-pix_fmt',
  'yuv420p',
  '-profile:v',
  'high',
  // Long side at most 1920, short side following (1080p for 16:9), dimensions kept even.
  '-vf',
  "scale='if(gte(iw,ih),min(1920,iw),-2)':'if(gte(iw,ih),-2,min(1920,ih))'",
];
export const ENCODE_AUDIO_ARGS = ['-c:a', 'aac', '-b:a', '128k', '-ac', '2'];

/** Pixel formats every browser's H.264 decoder takes (10-bit or 4:2:2 H.264 plays almost nowhere). */
const PLAYABLE_PIXEL_FORMATS = new Set(['yuv420p', 'yuvj420p']);

export function transcodePlan(info: ProbeResult): { copyVideo: boolean; audio: 'none' | 'copy' | 'encode' } {
  const copyVideo =
    info.video?.codec === 'h264' &&
    (info.video.pixelFormat === null || PLAYABLE_PIXEL_FORMATS.has(info.video.pixelFormat));
  const audio = !info.audio ? 'none' : info.audio.codec === 'aac' ? 'copy' : 'encode';
  return { copyVideo, audio };
}

/** Input, stream selection and codec arguments of the rendition run. */
function codecArgs(input: string, info: ProbeResult): string[] {
  const plan = transcodePlan(info);
  return [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-i',
    input,
    '-map',
    '0:v:0',
    ...(plan.audio === 'none' ? [] : ['-map', '0:a:0']),
    ...(plan.copyVideo ? ['-c:v', 'copy'] : ENCODE_VIDEO_ARGS),
    ...(plan.audio === 'copy' ? ['-c:a', 'copy'] : plan.audio === 'encode' ? ENCODE_AUDIO_ARGS : []),
    '-sn',
    '-dn',
    '-map_metadata',
    '-1',
    '-max_muxing_queue_size',
    '1024',
  ];
}

/**
 * The MP4 and the HLS rendition from one run (tee muxer): the source is read, and encoded if need be, once.
 * Relative outputs (run in the work folder), so no path needs tee's escaping. The media bench runs exactly
 * these arguments as its bare-ffmpeg reference (bench/suites/media.mjs).
 */
export function renditionArgs(input: string, info: ProbeResult): string[] {
  const plan = transcodePlan(info);
  const encodes = !plan.copyVideo || plan.audio === 'encode';
  return [
    ...codecArgs(input, info),
    // Behind tee, encoders must be told to put their headers out of band, as MP4 wants; the TS side gets
    // Annex B from the muxer.
    ...(encodes ? ['-flags', '+global_header'] : []),
    '-progress',
    'pipe:1',
    '-nostats',
    '-f',
    'tee',
    '[f=mp4:movflags=+faststart]video.mp4|' +
      '[f=hls:hls_time=6:hls_list_size=0:hls_playlist_type=vod:hls_segment_filename=hls/segment%04d.ts]hls/index.m3u8',
  ];
}

/** Milliseconds per step of one job, for the log line: where a job's time goes. */
export type StepTimings = Record<string, number>;

class ProgressWriter {
  private last = -1;
  private lastWrite = 0;
  private pending: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly videos: VideoRecords,
    private readonly videoId: number,
  ) {}

  /** At most one write a second, and only when the percentage moved. */
  report(percent: number): void {
    const value = Math.max(0, Math.min(99, Math.floor(percent)));
    const now = Date.now();
    if (value === this.last || now - this.lastWrite < 1000) return;
    this.last = value;
    this.lastWrite = now;
    this.pending = this.pending
      .then(() => this.videos.update(this.videoId, { transcodingProgress: value }))
      .catch(() => {});
  }

  flush(): Promise<unknown> {
    return this.pending;
  }
}

function outTimeSeconds(fields: Map<string, string>): number | null {
  const micro = Number(fields.get('out_time_us') ?? fields.get('out_time_ms'));
  return Number.isFinite(micro) && micro >= 0 ? micro / 1_000_000 : null;
}

async function makeThumbnail(
  tools: MediaTools,
  input: string,
  output: string,
  duration: number,
  signal?: AbortSignal,
) {
  const at = duration >= 2 ? 1 : 0;
  const args = (seek: number) => [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-ss',
    String(seek),
    '-i',
    input,
    '-frames:v',
    '1',
    '-vf',
    "scale='min(640,iw)':-2",
    '-q:v',
    '4',
    output,
  ];
  await run(tools.ffmpeg, args(at), { signal });
  // A seek past the last frame writes nothing; the first frame always exists.
  if (!existsSync(output)) await run(tools.ffmpeg, args(0), { signal });
  if (!existsSync(output)) throw new MediaError(MEDIA_FAILURES.noPicture);
}

/**
 * Takes the upload in (when the job carries one), then makes the thumbnail, the MP4 and the HLS rendition,
 * and marks the video ready. Idempotent: a job interrupted anywhere can simply run again.
 */
export async function processVideo(
  ctx: PipelineContext,
  videoId: number,
  payload: ProcessVideoSource,
): Promise<StepTimings> {
  const { videos, storage, tools, signal } = ctx;
  const timings: StepTimings = {};
  let mark = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - mark);
    mark = now;
  };
  const row = await videos.find(videoId);
  if (!row) return timings; // deleted meanwhile: nothing to do
  const keys = videoMediaKeys(videoId);
  const originalKey = row.originalFileKey ?? keys.original;

  await videos.update(videoId, {
    transcodingStatus: 'processing',
    transcodingProgress: 0,
    transcodingError: null,
  });

  if (payload.sourceKey) {
    // An upload waiting in the bucket (S3): moved by the request already, or by us now.
    await storage.move(payload.sourceKey, originalKey).catch(() => {});
  } else if (payload.source && existsSync(payload.source)) {
    // The upload request may be moving the same file right now; either move is as good.
    await storage.putFile(originalKey, payload.source).catch(() => {});
  }
  if (!(await storage.stat(originalKey))) throw new MediaError(MEDIA_FAILURES.missing);

  const work = ctx.workDir;
  let duration: number;
  await rm(work, { recursive: true, force: true });
  await mkdir(path.join(work, 'hls'), { recursive: true });
  try {
    // On disk, the original itself; from a bucket, a download into the scratch folder, gone with it below
    // (ffmpeg reads files).
    const input = await storage.localCopy(originalKey, work);
    lap('start');

    const info = await probe(tools, input);
    if (!info.video) throw new MediaError(MEDIA_FAILURES.noVideo);
    duration = info.duration;
    lap('probe');

    const progress = new ProgressWriter(videos, videoId);
    const thumb = path.join(work, 'thumb.jpg');
    const mp4 = path.join(work, 'video.mp4');
    // The thumbnail is one decoded frame: taken beside the renditions rather than before them. Either
    // failing stops both.
    const sibling = new AbortController();
    const both = signal ? AbortSignal.any([signal, sibling.signal]) : sibling.signal;
    const thumbStarted = performance.now();
    await Promise.all([
      makeThumbnail(tools, input, thumb, info.duration, both).then(() => {
        timings.thumbnail = Math.round(performance.now() - thumbStarted);
      }),
      run(tools.ffmpeg, renditionArgs(input, info), {
        cwd: work,
        signal: both,
        onProgress: (fields) => {
          const seconds = outTimeSeconds(fields);
          if (seconds !== null && info.duration > 0) progress.report((seconds / info.duration) * 99);
        },
      }),
    ]).catch((error: unknown) => {
      sibling.abort();
      throw error;
    });
    await progress.flush();
    lap('renditions');

    // A retry replaces what an earlier run left.
    await storage.removePrefix(keys.hlsFolder);
    for (const name of await readdir(path.join(work, 'hls'))) {
      await storage.putFile(`${keys.hlsFolder}/${name}`, path.join(work, 'hls', name));
    }
    await storage.putFile(keys.thumbnail, thumb);
    await storage.putFile(keys.mp4, mp4);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  lap('store');

  // Versioned URLs for the files a page loads at once (cached for good, never stale).
  const versioned = async (key: string) => {
    const object = await storage.stat(key);
    return object ? versionedMediaUrl(key, object) : mediaUrl(key);
  };
  const updated = await videos.update(videoId, {
    originalFileKey: originalKey,
    duration,
    videoUrl: await versioned(keys.mp4),
    hlsUrl: mediaUrl(keys.hlsPlaylist),
    thumbnailUrl: await versioned(keys.thumbnail),
    availableFormats: ['mp4', 'hls', 'mov'],
    isTranscoded: true,
    transcodingStatus: 'ready',
    transcodingProgress: 100,
    transcodingError: null,
  });
  // Deleted while we worked: its folder was removed before our files arrived, so remove them now.
  if (!updated) await storage.removePrefix(videoMediaPrefix(videoId));
  lap('ready');
  return timings;
}
