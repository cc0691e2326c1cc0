// Real Chromium through playwright-core: the machine's own browser when there is one (CHROMIUM_PATH, then
// /usr/bin/chromium), else the one packed in @sparticuz/chromium (unpacks itself to /tmp).
import { existsSync } from 'node:fs';
import { onCleanup } from './procs.mjs';

export async function chromiumPath() {
  if (process.env.CHROMIUM_PATH) {
    if (!existsSync(process.env.CHROMIUM_PATH))
      throw new Error(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist`);
    return process.env.CHROMIUM_PATH;
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  const { default: chromium } = await import('@sparticuz/chromium');
  return chromium.executablePath();
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // Belt and braces: no name resolves, so nothing but 127.0.0.1 can be reached.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

/** Launches Chromium; the caller closes it (in a finally). */
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  const executablePath = await chromiumPath();
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, timeout: 60_000 });
  // Closed by the suite normally; by stopAll() when the suite throws first.
  const unregister = onCleanup(() => browser.close());
  browser.on('disconnected', unregister);
  return { browser, executablePath };
}
