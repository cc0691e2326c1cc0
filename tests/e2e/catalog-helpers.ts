// Videos for the catalog's browser tests, made through the API as users make them (POST /api/videos,
// the sandbox checkout), and fake ones for states the server only reaches with time (processing, failed).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import type { Video } from '#common/schemas/videos.js';
import { mediaFixture } from '../setup/media-fixtures';
import { expect, test as base } from './fixtures';
import { newCredentials, type Credentials } from './helpers';

/** Someone signed in through the API in a cookie jar of their own, apart from the page's session. */
export type ApiUser = Credentials & { id: number; api: APIRequestContext };

export const test = base.extend<{ newUser: (prefix?: string) => Promise<ApiUser> }>({
  newUser: async ({ playwright, baseURL, extraHTTPHeaders }, use) => {
    const contexts: APIRequestContext[] = [];
    await use(async (prefix = 'capper') => {
      // The test's own X-Forwarded-For: one visitor, as far as the sign-up rate limit is concerned.
      const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders });
      contexts.push(api);
      const credentials = newCredentials(prefix);
      const res = await api.post('/api/register', {
        data: { ...credentials, phoneNumber: '', bio: '', avatarUrl: '' },
      });
      expect(res.status(), await res.text()).toBe(201);
      const { id } = (await res.json()) as { id: number };
      return { ...credentials, id, api };
    });
    await Promise.all(contexts.map((context) => context.dispose()));
  },
});

export { expect };

/** A title no other test (or run) uses, so a search or a card lookup finds exactly this one. */
export function uniqueTitle(prefix: string): string {
  return `${prefix} ${randomBytes(4).toString('hex')}`;
}

export type VideoDetails = {
  title: string;
  description?: string;
  emailInformation?: string;
  /** Dollars, as the form sends them. */
  price?: number;
  category?: string;
};

function fields(details: VideoDetails): Record<string, string> {
  return {
    title: details.title,
    description: details.description ?? 'Line movement and injuries, explained.',
    emailInformation: details.emailInformation ?? 'Lakers +4.5 (2 units)',
    price: String(details.price ?? 25),
    category: details.category ?? 'General',
    isPremium: 'true',
  };
}

/** spec 7: POST /api/videos with an external link; ready at once. */
export async function createLinkVideo(
  api: APIRequestContext,
  details: VideoDetails & { externalVideoUrl?: string; duration?: number | null },
): Promise<Video> {
  const res = await api.post('/api/videos', {
    multipart: {
      ...fields(details),
      // null: none given, as the upload form sends for a link (nothing can read a link's duration).
      duration: details.duration === null ? '' : String(details.duration ?? 95),
      isExternalVideo: 'true',
      externalVideoUrl: details.externalVideoUrl ?? 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Video;
}

/** spec 7: POST /api/videos with the small H.264 MOV fixture, then waits until the server has processed it. */
export async function uploadMovVideo(api: APIRequestContext, details: VideoDetails): Promise<Video> {
  const res = await api.post('/api/videos', {
    multipart: {
      ...fields(details),
      duration: '2',
      isExternalVideo: 'false',
      video: { name: 'h264.mov', mimeType: 'video/quicktime', buffer: readFileSync(mediaFixture('h264Mov')) },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as Video;
  let video: Video | undefined;
  await expect
    .poll(
      async () => {
        video = (await (await api.get(`/api/videos/${id}`)).json()) as Video;
        return video.transcodingStatus;
      },
      { timeout: 30_000 },
    )
    .toBe('ready');
  return video!;
}

/** Buys a video through the sandbox provider, as the checkout page does (docs/product-decisions.md 'Payments'). */
export async function buyVideo(api: APIRequestContext, videoId: number): Promise<void> {
  const intent = await api.post('/api/create-payment-intent', { data: { videoId } });
  expect(intent.status(), await intent.text()).toBe(200);
  const { clientSecret } = (await intent.json()) as { clientSecret: string };
  const confirm = await api.post('/api/payments/sandbox/confirm', {
    data: { clientSecret, card: { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' } },
  });
  expect(confirm.status(), await confirm.text()).toBe(200);
  const confirmed = (await confirm.json()) as { status: string; paymentIntentId: string };
  expect(confirmed.status).toBe('succeeded');
  const complete = await api.post('/api/payment-complete', {
    data: { paymentIntentId: confirmed.paymentIntentId, videoId },
  });
  expect(complete.status(), await complete.text()).toBe(200);
}

let fakeIds = 900_000_000;

/** A video as the API returns it, for states no real video is in long enough to test (processing, failed). */
export function fakeVideo(overrides: Partial<Video> = {}): Video {
  const id = overrides.id ?? ++fakeIds;
  return {
    id,
    userId: 1,
    title: `Fake pick ${id}`,
    description: 'Three legs, one lock.',
    price: 24.99,
    category: 'NFL',
    thumbnailUrl: null,
    videoUrl: `/media/videos/${id}/video.mp4`,
    webmUrl: null,
    ogvUrl: null,
    hlsUrl: null,
    externalVideoUrl: null,
    isExternalVideo: false,
    isTranscoded: true,
    transcodingStatus: 'ready',
    transcodingProgress: 100,
    transcodingError: null,
    availableFormats: ['mp4'],
    duration: 95,
    isPremium: true,
    views: 0,
    shareUrl: null,
    shareCount: 0,
    createdAt: new Date().toISOString(),
    capper: { id: 1, username: 'sharp_capper', displayName: null, avatarUrl: null },
    pick: null,
    isOwner: false,
    isPurchased: false,
    ...overrides,
  };
}

/** Answers the home page's list (GET /api/videos, the first page) with these videos. */
export async function serveHomeList(page: Page, videos: Video[]): Promise<void> {
  await page.route(
    (url) => url.pathname === '/api/videos' && url.search === '',
    (route) => route.fulfill({ json: videos }),
  );
}

/** The card of the video with this title. */
export function cardOf(page: Page, title: string) {
  return page.getByRole('article', { name: title });
}
