// The demo's uploaded clips, made by ffmpeg at seed time (issue 12): 4 s of a moving colour gradient with the
// matchup written on it, H.264 in a QuickTime file like a phone's, ~30 KB and ~0.4 s each. What this ffmpeg
// lacks is left out (a static build may have no `gradients` source or no font for `drawtext`).
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { run, type MediaTools } from '#server/media/ffmpeg.js';
import type { DemoVideo } from './demo-content.js';

const WIDTH = 480;
const HEIGHT = 270;
const SECONDS = 4;
const RATE = 24;

/** Two colours per clip, by category, so that neighbouring cards differ. */
const PALETTE: [string, string][] = [
  ['0x1e3a8a', '0x0ea5e9'],
  ['0x7c2d12', '0xf59e0b'],
  ['0x14532d', '0x22c55e'],
  ['0x4c1d95', '0xec4899'],
  ['0x0f172a', '0x64748b'],
  ['0x831843', '0xf43f5e'],
  ['0x134e4a', '0x2dd4bf'],
];

/** A font file drawtext can use without fontconfig (where fontconfig is missing, its default fails). */
const FONT_FILES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/TTF/DejaVuSans.ttf',
  '/System/Library/Fonts/Supplemental/Arial.ttf',
  '/Library/Fonts/Arial.ttf',
];

async function filterNames(ffmpeg: string): Promise<Set<string>> {
  const listing = await run(ffmpeg, ['-hide_banner', '-filters']).catch(() => '');
  return new Set(listing.split('\n').flatMap((line) => /^\s*[A-Z.|]{2,3}\s+(\w+)\s/.exec(line)?.[1] ?? []));
}

export class DemoClipMaker {
  private features: Promise<{ gradients: boolean; drawtext: boolean }> | undefined;
  private textFails = false;

  /** `dir`: a scratch folder of the caller's; the clips and their caption files are written there. */
  constructor(
    private readonly tools: MediaTools,
    private readonly dir: string,
  ) {}

  /** Writes the clip of `video` (the `index`th of the demo) and returns its path. */
  async make(video: DemoVideo, index: number, signal?: AbortSignal): Promise<string> {
    this.features ??= filterNames(this.tools.ffmpeg).then((names) => ({
      gradients: names.has('gradients'),
      drawtext: names.has('drawtext'),
    }));
    const { gradients, drawtext } = await this.features;
    const name = `clip-${index}`;
    const output = path.join(this.dir, `${name}.mov`);
    if (drawtext && !this.textFails) {
      try {
        await this.render(video, index, output, {
          gradients,
          text: await this.captions(video, name),
          signal,
        });
        return output;
      } catch (error) {
        if (signal?.aborted) throw error;
        this.textFails = true; // no usable font: every later clip goes without text
      }
    }
    await this.render(video, index, output, { gradients, text: null, signal });
    return output;
  }

  /** The captions go through files (drawtext's textfile), so no text needs the filter graph's escaping. */
  private async captions(video: DemoVideo, name: string): Promise<string> {
    const lines = {
      top: video.category,
      middle: video.matchup,
      bottom: `${video.capperName}  ·  PickReel demo`,
    };
    const font = FONT_FILES.find((file) => existsSync(file));
    const fontOption = font ? `:fontfile=${font}` : '';
    const filters: string[] = [];
    // The card puts its play button in the middle and the duration bottom right: the text keeps to the top
    // and the bottom left. Large, but never wider than the frame (~0.6 em per character in a sans face).
    const middleSize = Math.min(34, Math.floor((WIDTH - 48) / (0.6 * lines.middle.length)));
    const spec = [
      ['top', 20, 'x=24:y=22', 'white@0.85'],
      ['middle', middleSize, 'x=24:y=54:shadowcolor=black@0.5:shadowx=2:shadowy=2', 'white'],
      ['bottom', 16, 'x=24:y=h-38', 'white@0.8'],
    ] as const;
    for (const [key, size, position, color] of spec) {
      const file = `${name}-${key}.txt`;
      await writeFile(path.join(this.dir, file), lines[key]);
      filters.push(
        `drawtext=textfile=${file}${fontOption}:expansion=none:fontcolor=${color}:fontsize=${size}:${position}`,
      );
    }
    return filters.join(',');
  }

  private async render(
    video: DemoVideo,
    index: number,
    output: string,
    { gradients, text, signal }: { gradients: boolean; text: string | null; signal: AbortSignal | undefined },
  ): Promise<void> {
    const [from, to] = PALETTE[index % PALETTE.length]!;
    const source = gradients
      ? `gradients=s=${WIDTH}x${HEIGHT}:r=${RATE}:d=${SECONDS}:c0=${from}:c1=${to}:speed=0.03`
      : // Without gradients (older ffmpeg): the moving test pattern, its hue turned per clip.
        `testsrc2=s=${WIDTH}x${HEIGHT}:r=${RATE}:d=${SECONDS},hue=h=${(index * 47) % 360}`;
    await run(
      this.tools.ffmpeg,
      [
        '-hide_banner',
        '-nostdin',
        '-y',
        '-f',
        'lavfi',
        '-i',
        text ? `${source},${text}` : source,
        // What a phone records: H.264, 4:2:0, in a QuickTime file (the pipeline copies it into the MP4).
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-crf',
        '26',
        '-pix_fmt',
        'yuv420p',
        '-g',
        String(RATE * 2),
        '-an',
        '-metadata',
        `title=${video.title}`,
        '-f',
        'mov',
        output,
      ],
      { cwd: this.dir, signal },
    );
  }
}
