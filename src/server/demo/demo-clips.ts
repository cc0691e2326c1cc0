// The demo's preview clips, made by ffmpeg at seed time: 8 s at 640×360 that look like a capper's preview, the
// frame split in the two teams' colours, the league and the game's date, the matchup, the capper's name and
// "Preview — pick sealed", over a quiet four-chord music bed (aevalsrc). H.264 and AAC in a QuickTime file,
// as a phone records. A ffmpeg that cannot draw text (no drawtext, or no font) gives the same clip without
// words: the seed never fails for want of a font.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { run, type MediaTools } from '#server/media/ffmpeg.js';
import { teamColours } from './demo-teams.js';

const WIDTH = 640;
const HEIGHT = 360;
export const CLIP_SECONDS = 8;
const RATE = 24;

/** What a preview clip shows. */
export interface ClipSpec {
  league: string;
  away: string;
  home: string;
  /** The game's day, as the card shows it ('Sat Nov 28'). */
  date: string;
  capperName: string;
  /** The middle line when it is not 'Away at Home' (a card of several games). */
  headline?: string;
}

/** A font file drawtext can use without fontconfig; with none found, fontconfig's default is asked for. */
const FONT_FILES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/TTF/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf',
  '/System/Library/Fonts/Supplemental/Arial Bold.ttf',
  '/Library/Fonts/Arial.ttf',
  'C:\\Windows\\Fonts\\arialbd.ttf',
];

/** I–V–vi–IV, one chord every two seconds, as three sine voices each plucked twice a second. */
const CHORDS = [
  [261.63, 329.63, 392.0],
  [196.0, 246.94, 293.66],
  [220.0, 261.63, 329.63],
  [174.61, 220.0, 261.63],
];

/** aevalsrc's expression for the bed, transposed by `semitones` so that clips do not all sound alike. */
export function musicBed(semitones: number): string {
  const factor = 2 ** (semitones / 12);
  const voice = (v: number) => {
    const freq = CHORDS.reduceRight<string>(
      (rest, chord, i) =>
        i === CHORDS.length - 1
          ? (chord[v]! * factor).toFixed(2)
          : `if(lt(mod(t\\,8)\\,${(i + 1) * 2})\\,${(chord[v]! * factor).toFixed(2)}\\,${rest})`,
      '',
    );
    return `sin(2*PI*${freq}*t)`;
  };
  // A pluck every half second, a soft bass note under it, and a fade at both ends: quiet, never clipping.
  const pluck = 'exp(-5*mod(t\\,0.5))';
  const fade = `min(1\\,t/0.3)*min(1\\,(${CLIP_SECONDS}-t)/0.8)`;
  return `0.05*(${voice(0)}+${voice(1)}+${voice(2)})*${pluck}*${fade}`;
}

async function filterNames(ffmpeg: string): Promise<Set<string>> {
  const listing = await run(ffmpeg, ['-hide_banner', '-filters']).catch(() => '');
  return new Set(listing.split('\n').flatMap((line) => /^\s*[A-Z.|]{2,3}\s+(\w+)\s/.exec(line)?.[1] ?? []));
}

export class DemoClipMaker {
  private features: Promise<{ drawtext: boolean }> | undefined;
  private textFails = false;
  private count = 0;

  /** `dir`: a scratch folder of the caller's; the clips and their caption files are written there. */
  constructor(
    private readonly tools: MediaTools,
    private readonly dir: string,
  ) {}

  /** Writes a clip for `spec` and returns its path. `variant` turns the music's key. */
  async make(spec: ClipSpec, variant: number, signal?: AbortSignal): Promise<string> {
    this.features ??= filterNames(this.tools.ffmpeg).then((names) => ({ drawtext: names.has('drawtext') }));
    const { drawtext } = await this.features;
    const name = `clip-${this.count++}`;
    const output = path.join(this.dir, `${name}.mov`);
    if (drawtext && !this.textFails) {
      try {
        await this.render(spec, variant, output, await this.captions(spec, name), signal);
        return output;
      } catch (error) {
        if (signal?.aborted) throw error;
        this.textFails = true; // no usable font: every later clip goes without text
      }
    }
    await this.render(spec, variant, output, null, signal);
    return output;
  }

  /** The captions go through files (drawtext's textfile), so no text needs the filter graph's escaping. */
  private async captions(spec: ClipSpec, name: string): Promise<string> {
    const middle = spec.headline ?? `${spec.away} at ${spec.home}`;
    const lines = {
      top: `${spec.league}  ·  ${spec.date}`,
      middle,
      tag: 'Preview — pick sealed',
      bottom: spec.capperName,
    };
    const font = FONT_FILES.find((file) => existsSync(file));
    const fontOption = font ? `:fontfile='${font.replace(/\\/g, '/').replace(/:/g, '\\:')}'` : '';
    // Large, but never wider than the frame (~0.62 em per character in a bold sans face).
    const middleSize = Math.min(44, Math.floor((WIDTH - 56) / (0.62 * middle.length)));
    const fadeIn = (from: number) => `:alpha='min(1\\,max(0\\,(t-${from})/0.6))'`;
    const spec2 = [
      ['top', 22, `x=28:y=26${fadeIn(0)}`, 'white@0.9'],
      [
        'middle',
        middleSize,
        `x=(w-tw)/2:y=(h-th)/2-18:shadowcolor=black@0.6:shadowx=2:shadowy=2${fadeIn(0.2)}`,
        'white',
      ],
      ['tag', 22, `x=(w-tw)/2:y=h/2+34:box=1:boxcolor=black@0.55:boxborderw=10${fadeIn(0.8)}`, 'white'],
      ['bottom', 24, `x=28:y=h-46${fadeIn(0.4)}`, 'white'],
    ] as const;
    const filters: string[] = [];
    for (const [key, size, position, color] of spec2) {
      const file = `${name}-${key}.txt`;
      await writeFile(path.join(this.dir, file), lines[key]);
      filters.push(
        `drawtext=textfile=${file}${fontOption}:expansion=none:fontcolor=${color}:fontsize=${size}:${position}`,
      );
    }
    return filters.join(',');
  }

  private async render(
    spec: ClipSpec,
    variant: number,
    output: string,
    text: string | null,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const away = teamColours(spec.away);
    const home = teamColours(spec.home);
    // The away team's colour on the left, the home team's on the right, a band of each's second colour, a
    // light sweep crossing the frame, and dark bands where the words go.
    const background = [
      `color=c=${away[0]}:s=${WIDTH}x${HEIGHT}:r=${RATE}:d=${CLIP_SECONDS}`,
      `drawbox=x=${WIDTH / 2}:y=0:w=${WIDTH / 2}:h=${HEIGHT}:color=${home[0]}:t=fill`,
      `drawbox=x=0:y=${HEIGHT - 14}:w=${WIDTH / 2}:h=14:color=${away[1]}:t=fill`,
      `drawbox=x=${WIDTH / 2}:y=${HEIGHT - 14}:w=${WIDTH / 2}:h=14:color=${home[1]}:t=fill`,
      `drawbox=x=${WIDTH / 2 - 3}:y=0:w=6:h=${HEIGHT}:color=white@0.8:t=fill`,
      `drawbox=x=0:y=0:w=${WIDTH}:h=72:color=black@0.35:t=fill`,
      `drawbox=x=0:y=${HEIGHT - 78}:w=${WIDTH}:h=64:color=black@0.35:t=fill`,
    ].join(',');
    await run(
      this.tools.ffmpeg,
      [
        '-hide_banner',
        '-nostdin',
        '-y',
        '-f',
        'lavfi',
        '-i',
        text ? `${background},${text}` : background,
        '-f',
        'lavfi',
        '-i',
        `aevalsrc=exprs=${musicBed(variant % 5)}:s=44100:d=${CLIP_SECONDS}`,
        // What a phone records: H.264, 4:2:0, with AAC sound, in a QuickTime file.
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-crf',
        '28',
        '-pix_fmt',
        'yuv420p',
        '-g',
        String(RATE * 2),
        '-c:a',
        'aac',
        '-b:a',
        '64k',
        '-ac',
        '2',
        '-shortest',
        '-f',
        'mov',
        output,
      ],
      { cwd: this.dir, signal },
    );
  }
}
