import { existsSync } from 'node:fs';

/**
 * Which Chromium the browser tests drive. A machine's own browser wins (CHROMIUM_PATH, then
 * /usr/bin/chromium); otherwise the one bundled in @sparticuz/chromium, which unpacks itself to /tmp,
 * so a fresh machine needs nothing beyond `npm install` (no `playwright install`, no apt).
 */
export async function resolveChromiumPath(): Promise<string> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH points at ${fromEnv}, which does not exist`);
    return fromEnv;
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  const { default: chromium } = await import('@sparticuz/chromium');
  return chromium.executablePath();
}

/** Flags for an offline machine running as root: no sandbox, no GPU, and nothing phoning home. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
