// ffmpeg and ffprobe: where they are, and running them (docs/product-decisions.md 'Media').
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

function isExecutable(file: string): boolean {
  try {
    // A folder is "executable" too (searchable): only a file will do.
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string, searchPath: string | undefined): string | undefined {
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** The binary an npm package ships for this platform (no install script needed: the file is executable). */
function fromPackage(packageName: string): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const found = (require(packageName) as { path?: string }).path;
    return found && isExecutable(found) ? found : undefined;
  } catch {
    return undefined;
  }
}

const PACKAGES: Record<keyof MediaTools, string> = {
  ffmpeg: '@ffmpeg-installer/ffmpeg',
  ffprobe: '@ffprobe-installer/ffprobe',
};

/** FFMPEG_PATH, FFPROBE_PATH: the setting that names a tool. */
export const mediaToolSetting = (tool: keyof MediaTools) => `${tool.toUpperCase()}_PATH`;

/**
 * Where a tool is: the configured path when one is given (it must be an executable file), else the
 * system's on the search path, else the binary shipped in its npm package, so a fresh machine needs only
 * Node and npm. Otherwise why not, for config.ts to name the setting with.
 */
export function locateMediaTool(
  tool: keyof MediaTools,
  configured: string | undefined,
  searchPath: string | undefined,
): { path: string } | { problem: string } {
  if (configured) {
    return isExecutable(configured)
      ? { path: path.resolve(configured) }
      : { problem: `${configured} is not an executable file` };
  }
  const found = onPath(tool, searchPath) ?? fromPackage(PACKAGES[tool]);
  if (found) return { path: found };
  return {
    problem: `${tool} was found neither on PATH nor in ${PACKAGES[tool]}: install it, set ${mediaToolSetting(tool)} to its path, or reinstall the npm packages`,
  };
}

/**
 * The tools for an environment, throwing when one is missing: for tests and the bench, which run ffmpeg
 * without an app. The server reads them from its settings (config.ts `mediaTools`), checked at start.
 */
export function resolveMediaTools(env: NodeJS.ProcessEnv = process.env): MediaTools {
  const pick = (tool: keyof MediaTools) => {
    const setting = mediaToolSetting(tool);
    const located = locateMediaTool(tool, env[setting] || undefined, env.PATH);
    if ('problem' in located) throw new Error(`${setting}: ${located.problem}`);
    return located.path;
  };
  return { ffmpeg: pick('ffmpeg'), ffprobe: pick('ffprobe') };
}

let inUse: MediaTools | undefined;
/** The tools the settings named at start (main.ts and the scripts call this right after loadConfig). */
export function useMediaTools(tools: MediaTools): void {
  inUse = tools;
}
/** The tools in use: those set at start; an app built without main.ts (the API tests) finds them once. */
export function mediaTools(): MediaTools {
  inUse ??= resolveMediaTools();
  return inUse;
}

/**
 * What an owner (or admin) reads as `transcodingError`, in product words: never ffmpeg's or
 * Node's text, which stays in the job's `last_error` and the log.
 */
export const MEDIA_FAILURES = {
  unreadable:
    'This file could not be processed: it is not a video we can read. Please upload the MOV file again.',
  noVideo: 'This file could not be processed: it does not contain a playable video.',
  noPicture: 'This file could not be processed: no picture could be taken from the video.',
  missing: 'The uploaded file is missing. Please upload it again.',
  server: 'This video could not be processed because of a problem on our side. Please retry.',
} as const;

/**
 * A failure of the media itself (unreadable, no video): retrying will not help; the message is shown to
 * the owner, so it is one of MEDIA_FAILURES. The tool's own words go in `cause` (kept for the log).
 */
export class MediaError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MediaError';
  }
}

/** The owner's words for a failed job: a MediaError's sentence, else the server-side one. */
export function transcodingErrorMessage(err: unknown): string {
  return err instanceof MediaError ? err.message : MEDIA_FAILURES.server;
}

/** The raw text of a failure, its cause included, for the job's last_error (never shown to a client). */
export function failureDetail(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error ? `${err.message} (${err.cause.message})` : err.message;
}

export interface RunOptions {
  /** Called with each `key=value` block ffmpeg writes with `-progress pipe:1`. */
  onProgress?: (fields: Map<string, string>) => void;
  signal?: AbortSignal;
  cwd?: string;
}

/** Runs a tool to completion; resolves with stdout, rejects with the tail of stderr. */
export function run(binary: string, args: string[], options: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      signal: options.signal,
      cwd: options.cwd,
    });
    let stdout = '';
    let stderr = '';
    let block = new Map<string, string>();
    let pending = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (!options.onProgress) {
        stdout += chunk;
        return;
      }
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const eq = line.indexOf('=');
        if (eq < 0) continue;
        const key = line.slice(0, eq).trim();
        block.set(key, line.slice(eq + 1).trim());
        if (key === 'progress') {
          options.onProgress(block);
          block = new Map();
        }
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      // Only the end matters for an error message; never hold megabytes of ffmpeg chatter.
      stderr = (stderr + chunk).slice(-8000);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) return resolve(stdout);
      const tail = stderr.trim().split('\n').slice(-3).join(' ').slice(-500);
      reject(new Error(`${path.basename(binary)} exited with ${signal ?? code}: ${tail}`));
    });
  });
}

export interface ProbeResult {
  /** Seconds, rounded (spec 3: duration is whole seconds). */
  duration: number;
  video: { codec: string; width: number; height: number; pixelFormat: string | null } | null;
  audio: { codec: string } | null;
}

interface FfprobeJson {
  format?: { duration?: string };
  streams?: Array<{
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    pix_fmt?: string;
    duration?: string;
    disposition?: { attached_pic?: number };
  }>;
}

export async function probe(tools: MediaTools, file: string): Promise<ProbeResult> {
  let output: string;
  try {
    output = await run(tools.ffprobe, [
      '-v',
      'error',
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      file,
    ]);
  } catch (error) {
    // ffprobe missing or not startable is the server's problem (retried), not the file's.
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('E')) throw error;
    throw new MediaError(MEDIA_FAILURES.unreadable, { cause: error });
  }
  const json = JSON.parse(output) as FfprobeJson;
  const streams = json.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === 'audio');
  const seconds = Number(json.format?.duration ?? video?.duration ?? 0);
  return {
    duration: Number.isFinite(seconds) ? Math.round(seconds) : 0,
    video: video
      ? {
          codec: video.codec_name ?? 'unknown',
          width: video.width ?? 0,
          height: video.height ?? 0,
          pixelFormat: video.pix_fmt ?? null,
        }
      : null,
    audio: audio ? { codec: audio.codec_name ?? 'unknown' } : null,
  };
}
