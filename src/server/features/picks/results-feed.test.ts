// The results feed document's parsing (docs/results-feed.md).
import { describe, expect, it } from 'vitest';
import {
  AWAY_SCORE_MESSAGE,
  FEED_JSON_MESSAGE,
  FEED_SHAPE_MESSAGE,
  FEED_TOO_LONG_MESSAGE,
  MAX_FEED_RESULTS,
  RESULT_STATUS_MESSAGE,
} from '#common/schemas/results.js';
import { NUL_CHARACTER_MESSAGE } from '#common/schemas/text.js';
import { parseFeedDocument, parseFeedText } from './results-feed.js';

const game = { league: 'NBA', home: ' Lakers ', away: 'Celtics', startsAt: '2026-03-01T19:30:00-05:00' };

describe('parseFeedDocument', () => {
  it('reads finals and void results, start times kept as UTC to the second', () => {
    const document = parseFeedDocument({
      results: [
        { ...game, status: 'final', homeScore: 101, awayScore: 99 },
        // A void result's scores, if a provider sends them, are not kept.
        { ...game, status: 'postponed', homeScore: null, awayScore: null },
      ],
    });
    expect(document.results).toEqual([
      {
        league: 'NBA',
        home: 'Lakers',
        away: 'Celtics',
        startsAt: '2026-03-02T00:30:00Z',
        status: 'final',
        homeScore: 101,
        awayScore: 99,
      },
      {
        league: 'NBA',
        home: 'Lakers',
        away: 'Celtics',
        startsAt: '2026-03-02T00:30:00Z',
        status: 'postponed',
      },
    ]);
  });

  it('names the result at fault, in product words', () => {
    const cases: [unknown, string][] = [
      [[], FEED_SHAPE_MESSAGE],
      [{ results: 'none' }, FEED_SHAPE_MESSAGE],
      [{ results: [{ ...game, status: 'final', homeScore: 1 }] }, `Result 1: ${AWAY_SCORE_MESSAGE}`],
      [
        {
          results: [
            { ...game, status: 'cancelled' },
            { ...game, status: 'abandoned' },
          ],
        },
        `Result 2: ${RESULT_STATUS_MESSAGE}`,
      ],
      [
        { results: Array.from({ length: MAX_FEED_RESULTS + 1 }, () => ({ ...game, status: 'cancelled' })) },
        FEED_TOO_LONG_MESSAGE,
      ],
    ];
    for (const [raw, message] of cases) {
      expect(() => parseFeedDocument(raw), JSON.stringify(raw).slice(0, 80)).toThrow(message);
    }
    expect(() => parseFeedText('{"results":')).toThrow(FEED_JSON_MESSAGE);
  });
});

describe('a NUL character in a fetched document', () => {
  it('refuses the document with the NUL message, before any of it reaches a query', () => {
    // A feed read from a file or an address is JSON text: `\u0000` in it is a NUL once parsed.
    const text = JSON.stringify({
      results: [{ ...game, away: 'Celtics NUL_HERE', status: 'final', homeScore: 1, awayScore: 0 }],
    }).replace('NUL_HERE', '\\u0000');
    expect(() => parseFeedText(text)).toThrow(NUL_CHARACTER_MESSAGE);
    expect(() => parseFeedDocument(JSON.parse(text))).toThrow(NUL_CHARACTER_MESSAGE);
  });
});
