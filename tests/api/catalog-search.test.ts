import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIDEO_SORTS, type Video } from '#common/schemas/videos.js';
import { SEARCH_HEAD_LENGTH } from '#server/db/schema.js';
import type { VideoRow } from '#server/features/videos/videos-repository.js';
import { createVideo } from '../setup/fixtures.js';
import { createTestApp, registerUser, type TestApp } from '../setup/test-app.js';

// The catalog search reads each order's index, which carries only the first SEARCH_HEAD_LENGTH characters
// of the search text, and the longer texts' rest through their own trigram index. Whatever
// the length, a search finds exactly the videos whose title, description or category hold the text.

let t: TestApp;
const made: VideoRow[] = [];
const filler = (n: number) => 'x'.repeat(n);

beforeAll(async () => {
  t = await createTestApp();
  const capper = await registerUser(t.app, {}, '10.9.0.1');
  const descriptions = [
    'zebra early in a short text',
    `${filler(SEARCH_HEAD_LENGTH + 200)} zebra only past the head`,
    `zebra in the head ${filler(SEARCH_HEAD_LENGTH + 200)} and zebra again past it`,
    // 'zebra' across the head's end: its first letters inside, the rest past it.
    `${filler(SEARCH_HEAD_LENGTH - 'Title 4 '.length - 3)}zebra across the end ${filler(100)}`,
    `${filler(SEARCH_HEAD_LENGTH + 50)} no such word here`,
    'nothing to find',
    `${filler(SEARCH_HEAD_LENGTH + 10)} ZEBRA in capitals, far in`,
  ];
  for (const [i, description] of descriptions.entries()) {
    made.push(
      await createVideo(t, capper.id, {
        title: `Title ${i + 1}`,
        description,
        category: i % 2 === 0 ? 'NBA' : 'NFL',
        priceCents: 500 + ((i * 7) % 5) * 100 + i,
        views: (i * 3) % 7,
        createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
      }),
    );
  }
});
afterAll(async () => {
  await t?.close();
});

async function search(query: string): Promise<number[]> {
  const response = await t.app.inject({ method: 'GET', url: `/api/videos?${query}` });
  expect(response.statusCode, query).toBe(200);
  return (response.json() as Video[]).map((video) => video.id);
}

/** What the catalog must answer, worked out here from the rows themselves. */
function expected(text: string, sort: (typeof VIDEO_SORTS)[number], category?: string): number[] {
  const key = (v: VideoRow): [number, number] => {
    if (sort === 'newest') return [-v.createdAt.getTime(), -v.id];
    if (sort === 'popular') return [-v.views, -v.id];
    if (sort === 'price_asc') return [v.priceCents, v.id];
    return [-v.priceCents, -v.id];
  };
  return made
    .filter((v) => `${v.title} ${v.description} ${v.category}`.toLowerCase().includes(text.toLowerCase()))
    .filter((v) => !category || v.category === category)
    .sort((a, b) => {
      const [a1, a2] = key(a);
      const [b1, b2] = key(b);
      return a1 - b1 || a2 - b2;
    })
    .map((v) => v.id);
}

describe('catalog search past the indexed head', () => {
  it('finds a text in a short text, in the head, past it and across its end, in every order', async () => {
    expect(expected('zebra', 'newest')).toHaveLength(5);
    for (const sort of VIDEO_SORTS) {
      expect(await search(`q=zebra&sort=${sort}`), sort).toEqual(expected('zebra', sort));
    }
  });

  it('pages through both parts without losing or repeating a video', async () => {
    for (const sort of VIDEO_SORTS) {
      const pages: number[] = [];
      for (let offset = 0; offset < 6; offset += 2)
        pages.push(...(await search(`q=zebra&sort=${sort}&limit=2&offset=${offset}`)));
      expect(pages, sort).toEqual(expected('zebra', sort));
    }
  });

  it('filters by category in both parts', async () => {
    for (const category of ['NBA', 'NFL']) {
      expect(await search(`q=zebra&category=${category}&sort=popular`), category).toEqual(
        expected('zebra', 'popular', category),
      );
    }
  });

  it('finds the category and the title too, and nothing for an absent text', async () => {
    expect(await search('q=nfl&sort=price_asc')).toEqual(expected('nfl', 'price_asc'));
    expect(await search('q=title%207')).toEqual(expected('title 7', 'newest'));
    expect(await search('q=no%20such%20word%20anywhere')).toEqual([]);
  });
});
