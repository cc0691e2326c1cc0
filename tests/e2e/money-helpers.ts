// Set-up for the money browser tests: cappers, their videos and sales made through the API, each in its own
// cookie jar, so a test's page can be somebody else (the buyer, the capper) at the same time.
import { readFileSync } from 'node:fs';
import type { APIRequestContext, PlaywrightWorkerArgs } from '@playwright/test';
import { mediaFixture } from '../setup/media-fixtures';
import { E2E_ADMIN } from '../setup/e2e-env';
import { expect } from './fixtures';
import { newCredentials, type Credentials } from './helpers';

export type Account = { api: APIRequestContext; id: number; credentials: Credentials };

type Playwright = PlaywrightWorkerArgs['playwright'];
type ContextOptions = { baseURL: string | undefined; extraHTTPHeaders: Record<string, string> | undefined };

/** A signed-in API client for a new account; it presents the test's own client address (rate limits). */
export async function newAccount(
  playwright: Playwright,
  { baseURL, extraHTTPHeaders }: ContextOptions,
  prefix = 'capper',
): Promise<Account> {
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders });
  const credentials = newCredentials(prefix);
  const res = await api.post('/api/register', {
    data: { ...credentials, phoneNumber: '', bio: '', avatarUrl: '' },
  });
  expect(res.status(), await res.text()).toBe(201);
  const user = (await res.json()) as { id: number };
  return { api, id: user.id, credentials };
}

export async function adminApi(playwright: Playwright, options: ContextOptions): Promise<APIRequestContext> {
  const api = await playwright.request.newContext(options);
  const res = await api.post('/api/login', { data: E2E_ADMIN });
  expect(res.status(), await res.text()).toBe(200);
  return api;
}

export type VideoInput = {
  title: string;
  price: number;
  selections: string;
  description?: string;
  externalVideoUrl?: string;
};

/** A capper's video from an external link: ready at once, no transcoding to wait for. */
export async function createLinkVideo(capper: Account, input: VideoInput): Promise<{ id: number }> {
  const res = await capper.api.post('/api/videos', {
    multipart: {
      title: input.title,
      description: input.description ?? 'Line movement, injuries and the number we like.',
      emailInformation: input.selections,
      price: String(input.price),
      category: 'General',
      duration: '0',
      isPremium: 'true',
      userId: String(capper.id),
      isExternalVideo: 'true',
      externalVideoUrl: input.externalVideoUrl ?? 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as { id: number };
}

/** A capper's uploaded MOV (the small H.264 fixture); the server then transcodes it in the background. */
export async function createFileVideo(capper: Account, input: VideoInput): Promise<{ id: number }> {
  const res = await capper.api.post('/api/videos', {
    multipart: {
      title: input.title,
      description: input.description ?? 'Line movement, injuries and the number we like.',
      emailInformation: input.selections,
      price: String(input.price),
      category: 'General',
      duration: '2',
      isPremium: 'true',
      userId: String(capper.id),
      isExternalVideo: 'false',
      video: {
        name: 'h264.mov',
        mimeType: 'video/quicktime',
        buffer: readFileSync(mediaFixture('h264Mov')),
      },
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as { id: number };
}

/** Waits for the server to finish an upload's media job (the video is public only once it is ready). */
export async function waitUntilPlayable(capper: Account, videoId: number): Promise<void> {
  await expect
    .poll(
      async () =>
        ((await (await capper.api.get(`/api/videos/${videoId}`)).json()) as { transcodingStatus: string })
          .transcodingStatus,
      { timeout: 30_000 },
    )
    .toBe('ready');
}

/** A whole sandbox purchase through the API, as the checkout page makes it. */
export async function buyViaApi(buyer: Account, videoId: number): Promise<void> {
  const intent = await buyer.api.post('/api/create-payment-intent', { data: { videoId } });
  expect(intent.status(), await intent.text()).toBe(200);
  const { clientSecret, paymentIntentId } = (await intent.json()) as {
    clientSecret: string;
    paymentIntentId: string;
  };
  const confirm = await buyer.api.post('/api/payments/sandbox/confirm', {
    data: { clientSecret, card: { number: '4242424242424242', expMonth: 12, expYear: 2099, cvc: '123' } },
  });
  expect(((await confirm.json()) as { status: string }).status).toBe('succeeded');
  const complete = await buyer.api.post('/api/payment-complete', { data: { paymentIntentId, videoId } });
  expect(complete.status(), await complete.text()).toBe(200);
}

export function uniqueTitle(what: string): string {
  return `${what} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}
