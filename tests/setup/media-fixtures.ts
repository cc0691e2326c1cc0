// Video fixtures made by ffmpeg at test time (conventions 'Tests'), once per machine: the folder is keyed
// by what the recipes say, so changing a recipe makes new files.
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  createReadStream,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveMediaTools } from '#server/media/ffmpeg.js';

const LAVFI_VIDEO = (seconds: number) => [
  '-f',
  'lavfi',
  '-i',
  `testsrc=size=320x240:rate=25:duration=${seconds}`,
  '-f',
  'lavfi',
  '-i',
  `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
];

const RECIPES = {
  /** H.264/AAC in a QuickTime file: the stream-copy path. */
  h264Mov: {
    name: 'h264.mov',
    args: [
      ...LAVFI_VIDEO(2),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-f',
      'mov',
    ],
  },
  /** MPEG-4 part 2 with PCM audio in a QuickTime file: the re-encode path. */
  mpeg4Mov: {
    name: 'mpeg4.mov',
    args: [...LAVFI_VIDEO(2), '-c:v', 'mpeg4', '-q:v', '5', '-c:a', 'pcm_s16le', '-f', 'mov'],
  },
  /**
   * MPEG-4 part 2 at 720p for 12 s: a re-encode of a few seconds of CPU, so a browser test sees an upload
   * being processed after it has landed on a list.
   */
  slowMov: {
    name: 'slow.mov',
    args: [
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=1280x720:rate=30:duration=12',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:sample_rate=44100:duration=12',
      '-c:v',
      'mpeg4',
      '-q:v',
      '5',
      '-c:a',
      'pcm_s16le',
      '-f',
      'mov',
    ],
  },
  /** A real MP4 wearing a .mov name: refused by its bytes. */
  mp4AsMov: {
    name: 'renamed-mp4.mov',
    args: [
      ...LAVFI_VIDEO(1),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-f',
      'mp4',
    ],
  },
  /** A PNG wearing a .mov name. */
  pngAsMov: {
    name: 'renamed-png.mov',
    args: ['-f', 'lavfi', '-i', 'color=c=red:size=16x16', '-frames:v', '1', '-f', 'image2', '-c:v', 'png'],
  },
} as const;

export type FixtureName = keyof typeof RECIPES | 'emptyMov';

const tools = () => resolveMediaTools();

function fixtureDir(): string {
  const key = createHash('sha256').update(JSON.stringify(RECIPES)).digest('hex').slice(0, 12);
  const dir = path.join(os.tmpdir(), `pickreel-media-fixtures-${key}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The path of a fixture, made on first use (a few hundred milliseconds each). */
export function mediaFixture(name: FixtureName): string {
  const dir = fixtureDir();
  if (name === 'emptyMov') {
    const file = path.join(dir, 'empty.mov');
    if (!existsSync(file)) writeFileSync(file, '');
    return file;
  }
  const recipe = RECIPES[name];
  const file = path.join(dir, recipe.name);
  if (existsSync(file)) return file;
  // Written beside and renamed, so parallel test files never read half a fixture.
  const partial = `${file}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`;
  execFileSync(tools().ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', ...recipe.args, partial], {
    stdio: 'pipe',
  });
  renameSync(partial, file);
  return file;
}

/**
 * A valid MOV of more than `bytes` bytes: the small H.264 fixture followed by a QuickTime 'free' atom of
 * random bytes (players skip it), so it is big enough for the tus path and still processes in seconds.
 */
export function largeMovFixture(bytes: number): string {
  const dir = fixtureDir();
  const file = path.join(dir, `large-${bytes}.mov`);
  if (existsSync(file)) return file;
  const partial = `${file}.${process.pid}.tmp`;
  const head = readFileSync(mediaFixture('h264Mov'));
  const fd = openSync(partial, 'w');
  try {
    writeSync(fd, head);
    const payload = Math.max(0, bytes - head.length) + 1;
    const header = Buffer.alloc(8);
    header.writeUInt32BE(payload + 8, 0);
    header.write('free', 4, 'latin1');
    writeSync(fd, header);
    const chunk = 4 * 1024 * 1024;
    for (let left = payload; left > 0; left -= chunk) writeSync(fd, randomBytes(Math.min(chunk, left)));
  } finally {
    closeSync(fd);
  }
  renameSync(partial, file);
  return file;
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 }))
    hash.update(chunk as Buffer);
  return hash.digest('hex');
}
