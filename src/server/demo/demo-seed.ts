// The demo seed: a client of the app's own HTTP API, so that the same code fills a server that is running
// (`npm run seed:demo` beside `npm start`), one started in-process by the script, and the server itself at
// start (SEED_DEMO). It signs in or registers the demo accounts, uploads each demo preview clip through
// POST /api/videos, so that the media job runner makes its thumbnail, MP4 and HLS as for any upload, waits
// for the clips to be processed, buys through the sandbox card checkout, then asks the server for the
// cappers' graded history (POST /api/demo/history). Idempotent: a demo video is known by its owner and
// title, a purchase by its buyer and video; what exists is left alone.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DemoHistoryResult } from '#common/schemas/demo.js';
import type { PaymentIntentResponse, SandboxConfirmResponse } from '#common/schemas/payments.js';
import type { Video } from '#common/schemas/videos.js';
import { mediaTools } from '#server/media/ffmpeg.js';
import { DemoClipMaker } from './demo-clips.js';
import {
  DEMO_BETTORS,
  DEMO_CAPPERS,
  DEMO_PASSWORD,
  DEMO_USERNAMES,
  clipOf,
  demoPurchases,
  demoVideos,
  type DemoVideo,
} from './demo-content.js';

export interface DemoSeedOptions {
  /** One line per step, in product words. */
  log: (line: string) => void;
  /** Stops the seed (the server shutting down); what is done stays done, a later run adds the rest. */
  signal?: AbortSignal;
  /** How long the media jobs may make no progress before the seed gives up; 2 minutes by default. */
  stallMs?: number;
  /** The server's demo token (its DATA_DIR's), which the graded history's route asks for. */
  token: string | null;
}

/** The header that carries the demo token. */
export const DEMO_TOKEN_HEADER = 'x-pickreel-demo-token';

export interface DemoSeedResult {
  /** Demo videos in the catalog after the run, and how many of them this run added. */
  videos: number;
  added: number;
  /** Uploaded demo clips by state once the wait is over. */
  ready: number;
  failed: number;
  /** Purchases this run made. */
  purchases: number;
  /** What the graded history's step added. */
  history: DemoHistoryResult;
  seconds: number;
}

const PAGE = 100;
const POLL_MS = 1_000;
const PROGRESS_EVERY_MS = 3_000;

/** Where a client on this machine reaches a server listening on `host`: a wildcard means loopback. */
export function localUrl(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '') return `http://127.0.0.1:${port}`;
  if (host === '::') return `http://[::1]:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** A refusal of the API, with its status and its `{ message }`. */
export class DemoApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'DemoApiError';
  }
}

/** One signed-in account: its own cookies, as a browser would keep them. */
export class ApiClient {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** The parsed answer, or a DemoApiError unless its status is one of `allowed`. */
  async call<T>(
    method: string,
    pathname: string,
    body?: FormData | object,
    allowed: number[] = [],
    extraHeaders: Record<string, string> = {},
  ): Promise<{ status: number; data: T }> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (this.cookies.size)
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (body && !(body instanceof FormData)) headers['content-type'] = 'application/json';
    const response = await fetch(new URL(pathname, this.baseUrl), {
      method,
      headers,
      body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
      signal: this.signal,
    });
    for (const line of response.headers.getSetCookie()) this.keep(line);
    const text = await response.text();
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = { message: text.slice(0, 200) };
    }
    if (!response.ok && !allowed.includes(response.status)) {
      const message = (data as { message?: string } | null)?.message ?? response.statusText;
      throw new DemoApiError(response.status, `${method} ${pathname}: ${response.status} ${message}`);
    }
    return { status: response.status, data: data as T };
  }

  private keep(setCookie: string): void {
    const [pair = '', ...attributes] = setCookie.split(';');
    const eq = pair.indexOf('=');
    if (eq <= 0) return;
    const name = pair.slice(0, eq).trim();
    const cleared = attributes.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a)) || pair.slice(eq + 1) === '';
    if (cleared) this.cookies.delete(name);
    else this.cookies.set(name, pair.slice(eq + 1).trim());
  }
}

/** Signs in, or registers the account the first time. */
export async function signIn(
  baseUrl: string,
  signal: AbortSignal | undefined,
  account: { username: string; displayName?: string; bio?: string },
): Promise<ApiClient> {
  const client = new ApiClient(baseUrl, signal);
  const credentials = { username: account.username, password: DEMO_PASSWORD };
  const login = await client.call('POST', '/api/login', credentials, [401]);
  if (login.status === 200) return client;
  const registered = await client.call<{ message?: string }>(
    'POST',
    '/api/register',
    {
      ...credentials,
      email: `${account.username}@example.com`,
      displayName: account.displayName,
      bio: account.bio,
    },
    [400, 409],
  );
  if (registered.status !== 201)
    throw new Error(
      `the demo account ${account.username} cannot be used (${registered.data.message ?? registered.status}): ` +
        `it exists with another password`,
    );
  return client;
}

/** The capper's own demo videos by title, in every state: pages of their list until all are found. */
async function ownDemoVideos(client: ApiClient, titles: Set<string>): Promise<Map<string, Video>> {
  const found = new Map<string, Video>();
  for (let offset = 0; offset <= 100_000 - PAGE; offset += PAGE) {
    const { data } = await client.call<Video[]>('GET', `/api/user/videos?limit=${PAGE}&offset=${offset}`);
    for (const video of data)
      if (titles.has(video.title) && !found.has(video.title)) found.set(video.title, video);
    if (data.length < PAGE || found.size === titles.size) break;
  }
  return found;
}

function uploadForm(video: DemoVideo): FormData {
  const form = new FormData();
  form.append('title', video.title);
  form.append('description', video.description);
  form.append('emailInformation', video.emailInformation);
  form.append('price', String(video.price));
  form.append('category', video.category);
  form.append('isPremium', 'true');
  form.append('isExternalVideo', 'false');
  return form;
}

/** Adds the demo content through the API of the PickReel at `baseUrl` (see the top of this file). */
export async function seedDemo(baseUrl: string, options: DemoSeedOptions): Promise<DemoSeedResult> {
  const started = performance.now();
  const { log, signal } = options;
  const stallMs = options.stallMs ?? 120_000;
  await new ApiClient(baseUrl, signal).call('GET', '/api/health');

  // At once: each sign-in is a password hash, and the server hashes on several threads.
  const cappers = new Map<string, ApiClient>(
    await Promise.all(
      DEMO_CAPPERS.map(async (capper) => [capper.username, await signIn(baseUrl, signal, capper)] as const),
    ),
  );
  const bettors = new Map<string, ApiClient>(
    await Promise.all(
      DEMO_BETTORS.map(async (username) => [username, await signIn(baseUrl, signal, { username })] as const),
    ),
  );

  const list = demoVideos();
  const existing = new Map<DemoVideo, Video>();
  for (const [username, client] of cappers) {
    const mine = list.filter((video) => video.capper === username);
    const found = await ownDemoVideos(client, new Set(mine.map((video) => video.title)));
    for (const video of mine) {
      const row = found.get(video.title);
      if (row) existing.set(video, row);
    }
  }
  const missing = list.filter((video) => !existing.has(video));
  const files = list.length;
  log(
    missing.length === 0
      ? `Demo accounts ready; all ${list.length} demo videos are in the catalog already.`
      : `Demo accounts ready (${DEMO_USERNAMES.join(', ')}); adding ${missing.length} of ${list.length} demo videos.`,
  );

  // Oldest first, so the list's first videos are the catalog's newest. Two clips are made ahead of the
  // upload (ffmpeg's start-up is most of a clip's time), while the server processes the ones sent.
  const order = [...missing].reverse();
  const work = await mkdtemp(path.join(os.tmpdir(), 'pickreel-demo-'));
  const clips = new DemoClipMaker(mediaTools(), work);
  const made = new Map<DemoVideo, Promise<string>>();
  const makeAhead = (from: number) => {
    for (const video of order.slice(from, from + 3)) {
      if (made.has(video)) continue;
      const clip = clips.make(clipOf(video), list.indexOf(video), signal);
      clip.catch(() => undefined); // awaited in its turn; a failure is reported there
      made.set(video, clip);
    }
  };
  let added = 0;
  try {
    for (const [i, video] of order.entries()) {
      makeAhead(i);
      const form = uploadForm(video);
      const clip = await made.get(video)!;
      const name = `${`${video.away}-at-${video.home}`.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.mov`;
      form.append('video', new Blob([await readFile(clip)], { type: 'video/quicktime' }), name);
      await rm(clip, { force: true });
      const client = cappers.get(video.capper)!;
      existing.set(video, (await client.call<Video>('POST', '/api/videos', form)).data);
      added += 1;
      if (added % 10 === 0 && added < missing.length) log(`Demo videos: ${added} of ${missing.length} sent.`);
    }
  } finally {
    await Promise.allSettled(made.values());
    await rm(work, { recursive: true, force: true });
  }
  // A clip whose processing failed in an earlier run is given another go.
  for (const [video, row] of existing) {
    if (row.transcodingStatus !== 'failed') continue;
    const client = cappers.get(video.capper)!;
    existing.set(video, (await client.call<Video>('POST', `/api/videos/${row.id}/retry`)).data);
  }

  const { ready, failed } = await waitForClips(existing, cappers, { log, signal, stallMs, files });

  let purchases = 0;
  const buyable = demoPurchases(list).filter(
    ({ video }) => existing.get(video)?.transcodingStatus === 'ready',
  );
  for (const [username, client] of bettors) {
    // The sandbox's card form has a route of its own: an empty body is a 400 there and a 404 under Stripe.
    const sandbox =
      (await client.call('POST', '/api/payments/sandbox/confirm', {}, [400, 404])).status === 400;
    if (!sandbox) {
      log('Card payments go to Stripe on this server: the demo bettors buy nothing.');
      break;
    }
    for (const { video } of buyable.filter((entry) => entry.bettor === username)) {
      if (await buy(client, existing.get(video)!.id)) purchases += 1;
    }
  }

  // The cappers' graded history: picks on past games, which only the server holding the database can add.
  const { data: history } = await cappers
    .get(DEMO_CAPPERS[0].username)!
    .call<DemoHistoryResult>(
      'POST',
      '/api/demo/history',
      undefined,
      [],
      options.token ? { [DEMO_TOKEN_HEADER]: options.token } : {},
    );
  log(
    history.posted || history.settled
      ? `Demo history: ${history.posted} picks posted, ${history.settled} games settled, ${history.graded} picks graded.`
      : 'Demo history: all in place already.',
  );

  const seconds = (performance.now() - started) / 1000;
  log(
    `Demo content ready in ${seconds.toFixed(1)} s: ${existing.size} demo videos (${ready} of ${files} clips playable` +
      `${failed ? `, ${failed} failed` : ''}), ${purchases} new purchases. Sign in as ${DEMO_USERNAMES.join(', ')} ` +
      `(password: ${DEMO_PASSWORD}).`,
  );
  return { videos: existing.size, added, ready, failed, purchases, history, seconds };
}

/** Waits until every uploaded demo clip is ready or failed, telling how far the media jobs are. */
async function waitForClips(
  videos: Map<DemoVideo, Video>,
  cappers: Map<string, ApiClient>,
  options: { log: (line: string) => void; signal?: AbortSignal; stallMs: number; files: number },
): Promise<{ ready: number; failed: number }> {
  const { log, signal, stallMs, files } = options;
  const pending = () =>
    [...videos.keys()].filter((video) => !['ready', 'failed'].includes(videos.get(video)!.transcodingStatus));
  const count = (status: string) =>
    [...videos.values()].filter((row) => row.transcodingStatus === status).length;
  let lastChange = Date.now();
  let lastLog = 0;
  let lastText = '';
  while (pending().length > 0) {
    await sleep(POLL_MS, undefined, { signal });
    // One look per capper at their own list (the owner sees a video in every state), not one per video.
    for (const [username, client] of cappers) {
      const waiting = pending().filter((video) => video.capper === username);
      if (waiting.length === 0) continue;
      const now = await ownDemoVideos(client, new Set(waiting.map((video) => video.title)));
      for (const video of waiting) {
        const before = videos.get(video)!;
        const after = now.get(video.title);
        if (!after) continue;
        if (
          after.transcodingStatus !== before.transcodingStatus ||
          after.transcodingProgress !== before.transcodingProgress
        )
          lastChange = Date.now();
        videos.set(video, after);
        if (after.transcodingStatus === 'failed')
          log(
            `Demo clip '${video.title}' could not be processed: ${after.transcodingError ?? 'no reason given'}`,
          );
      }
    }
    const text = `Processing the demo clips: ${count('ready')} of ${files} ready.`;
    if (text !== lastText && (Date.now() - lastLog >= PROGRESS_EVERY_MS || pending().length === 0)) {
      log(text);
      lastText = text;
      lastLog = Date.now();
    }
    if (Date.now() - lastChange > stallMs)
      throw new Error(
        `no demo clip has moved on for ${Math.round(stallMs / 1000)} s (${pending().length} waiting): ` +
          `is the server's media job runner running?`,
      );
  }
  return { ready: count('ready'), failed: count('failed') };
}

/** The sandbox card checkout, as the checkout page does it; false when the bettor owns the pick already. */
async function buy(client: ApiClient, videoId: number): Promise<boolean> {
  const owned = await client.call<{ purchased: boolean }>('GET', `/api/videos/${videoId}/purchased`);
  if (owned.data.purchased) return false;
  const intent = await client.call<PaymentIntentResponse>('POST', '/api/create-payment-intent', { videoId });
  const card = {
    number: '4242424242424242',
    expMonth: 12,
    expYear: new Date().getFullYear() + 3,
    cvc: '123',
  };
  const paid = await client.call<SandboxConfirmResponse>('POST', '/api/payments/sandbox/confirm', {
    clientSecret: intent.data.clientSecret,
    card,
  });
  if (paid.data.status !== 'succeeded')
    throw new Error(`the sandbox refused the demo card: ${paid.data.error?.message ?? paid.data.status}`);
  await client.call('POST', '/api/payment-complete', {
    paymentIntentId: intent.data.paymentIntentId,
    videoId,
  });
  return true;
}
