// Verified picks for the browser tests: a leg on a game of its own, a pick posted through the
// API as a YouTube link with legs, and its public view.
import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import type { PickLegsView, PickView } from '#common/schemas/pick-views.js';
import type { UnsettledEventPage } from '#common/schemas/results.js';
import type { Video } from '#common/schemas/videos.js';
import { expect } from './catalog-helpers';

/**
 * A leg on a game of its own (team names no other test uses): NHL, the home side's spread, unless
 * overridden. Self-reported in a league the tests' market does not follow (NBA, NHL); in NFL or MLB the
 * server refuses it, since no market game has its teams (market-helpers' marketLeg is for those).
 */
export function newLeg(startsAt: Date, overrides: Record<string, unknown> = {}) {
  const tag = randomBytes(3).toString('hex');
  const home = `Home ${tag}`;
  return {
    league: 'NHL',
    home,
    away: `Away ${tag}`,
    startsAt: startsAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    market: 'spread',
    side: home,
    line: -1.5 as number | null,
    odds: -110,
    units: 1,
    ...overrides,
  };
}

export type TestLeg = ReturnType<typeof newLeg>;

/**
 * Posts a pick with these legs (newLeg's self-reported ones, market-helpers' marketLeg ones, or both; a
 * parlay when there are several, unless said); its category is the first leg's league.
 */
export async function postPick(
  api: APIRequestContext,
  title: string,
  legs: ReadonlyArray<{ league: string }>,
  options: { selections?: string; parlay?: boolean } = {},
): Promise<Video> {
  const res = await api.post('/api/videos', {
    multipart: {
      title,
      description: 'Why the line is off, explained.',
      emailInformation: options.selections ?? 'The home side',
      price: '25',
      category: legs[0]?.league ?? 'NHL',
      isPremium: 'true',
      duration: '95',
      isExternalVideo: 'true',
      externalVideoUrl: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      legs: JSON.stringify(legs),
      parlay: String(options.parlay ?? legs.length > 1),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Video;
}

export async function pickOf(api: APIRequestContext, videoId: number): Promise<PickView> {
  const res = await api.get(`/api/picks/${videoId}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as PickView;
}

/** The legs as their owner, buyers and admins see them before the reveal, a market leg's sealed price included. */
export async function legsOf(api: APIRequestContext, videoId: number): Promise<PickLegsView> {
  const res = await api.get(`/api/picks/${videoId}/legs`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as PickLegsView;
}

/**
 * The id of the game a leg is on, as an admin's Results tab lists it: past its start, without a result. The
 * tests post legs starting seconds later and grade them once started; read from the public event picker
 * instead, the game had gone from it when a slow run took longer than those seconds to get there.
 */
export async function startedEventId(admin: APIRequestContext, leg: TestLeg): Promise<number> {
  for (let offset = 0; ; offset += 100) {
    const res = await admin.get(`/api/admin/results?limit=100&offset=${offset}`);
    expect(res.status(), await res.text()).toBe(200);
    const page = (await res.json()) as UnsettledEventPage;
    const event = page.events.find((e) => e.home === leg.home && e.away === leg.away);
    if (event) return event.id;
    expect(offset + 100 < page.total, `${leg.home} v ${leg.away} among the started games`).toBe(true);
  }
}
