import { describe, expect, it } from 'vitest';
import { entryBytes, parseEntry, type ClosedEntry, type LogEntry, type SettledEntry } from './entry.js';

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
const bytesOf = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));
const COMMITMENT = 'ab'.repeat(32);
const posted: LogEntry = {
  v: 1,
  type: 'posted',
  videoId: 7,
  capper: 'sharpshooter',
  commitment: COMMITMENT,
  at: '2026-11-25T18:30:00Z',
  version: 1,
};

const settled: SettledEntry = {
  v: 2,
  type: 'settled',
  at: '2026-11-26T03:00:00Z',
  event: 9,
  game: 'the-odds-api:abc',
  league: 'NBA',
  home: 'Celtics',
  away: 'Knicks',
  startsAt: '2026-11-26T00:30:00Z',
  status: 'final',
  homeScore: 110,
  awayScore: 100,
  source: 'the-odds-api',
};
const closed: ClosedEntry = {
  v: 2,
  type: 'closed',
  at: '2026-11-26T00:30:00Z',
  event: 9,
  game: 'the-odds-api:abc',
  league: 'NBA',
  home: 'Celtics',
  away: 'Knicks',
  startsAt: '2026-11-26T00:30:00Z',
  takenAt: '2026-11-26T00:29:00Z',
  books: [
    {
      book: 'draftkings',
      prices: [
        ['moneyline', 'home', null, -150],
        ['moneyline', 'away', null, 130],
      ],
    },
  ],
  prices: [{ market: 'moneyline', side: 'home', line: null, best: -150, book: 'draftkings', fair: 0.58 }],
};

describe('log entries', () => {
  it('are RFC 8785 canonical: keys sorted by UTF-16 code units, no spaces, numbers as ECMAScript writes them', () => {
    expect(text(entryBytes(posted))).toBe(
      `{"at":"2026-11-25T18:30:00Z","capper":"sharpshooter","commitment":"${COMMITMENT}","type":"posted","v":1,"version":1,"videoId":7}`,
    );
    const graded: LogEntry = {
      ...posted,
      type: 'graded',
      result: 'win',
      unitsWon: 1.5e-7,
      unitsRisked: 100,
      capper: 'é€😀',
    };
    expect(text(entryBytes(graded))).toBe(
      `{"at":"2026-11-25T18:30:00Z","capper":"é€😀","commitment":"${COMMITMENT}","result":"win","type":"graded","unitsRisked":100,"unitsWon":1.5e-7,"v":1,"version":1,"videoId":7}`,
    );
    const { version: _version, ...withoutVersion } = posted;
    expect(text(entryBytes({ ...withoutVersion, version: undefined }))).not.toContain('version');
  });

  it('evidence entries (format 2) read back as they were written', () => {
    for (const entry of [
      settled,
      closed,
      { ...settled, status: 'postponed' as const, homeScore: null, awayScore: null },
    ])
      expect(parseEntry(entryBytes(entry))).toEqual(entry);
  });

  it('read back as they were written, with fields beyond the list kept', () => {
    const entries: LogEntry[] = [
      posted,
      { ...posted, type: 'revised', version: 2 },
      { ...posted, type: 'graded', result: 'loss', unitsWon: -1.1, unitsRisked: 1.1 },
      { ...posted, type: 'graded', result: null, unitsWon: null, unitsRisked: null },
      { ...posted, type: 'removed', reason: 'moderation' },
    ];
    for (const entry of entries) expect(parseEntry(entryBytes(entry))).toEqual(entry);
    const extended = parseEntry(bytesOf({ ...posted, league: 'NBA' }));
    expect(extended).toMatchObject({ ...posted, league: 'NBA' });
    // Not canonical (order, spaces) is accepted: the tree hashes whatever bytes were logged.
    expect(parseEntry(new TextEncoder().encode(JSON.stringify(posted, null, 2)))).toEqual(posted);
  });

  it('refuses what is not an entry, saying which field is wrong', () => {
    const cases: [unknown, RegExp][] = [
      [[posted], /not a JSON object/],
      [null, /not a JSON object/],
      ['posted', /not a JSON object/],
      [{ ...posted, v: 3 }, /v is not a version this reader knows \(1 or 2\)/],
      [{ ...posted, v: '1' }, /v is not a version/],
      [{ ...posted, type: 'deleted' }, /type is not one of/],
      [{ ...posted, type: undefined }, /type/],
      [{ ...posted, videoId: '7' }, /videoId/],
      [{ ...posted, videoId: 7.5 }, /videoId/],
      [{ ...posted, videoId: 0 }, /videoId/],
      [{ ...posted, capper: undefined }, /capper/],
      [{ ...posted, capper: 3 }, /capper/],
      [{ ...posted, commitment: COMMITMENT.toUpperCase() }, /commitment/],
      [{ ...posted, commitment: 'abc' }, /commitment/],
      [{ ...posted, at: undefined }, /at is not/],
      [{ ...posted, at: '2026-11-25 18:30:00' }, /at is not/],
      [{ ...posted, at: '2026-11-25T18:30:00+01:00' }, /at is not/],
      [{ ...posted, at: '2026-13-45T18:30:00Z' }, /at is not/],
      [{ ...posted, version: 0 }, /version/],
      [{ ...posted, version: '1' }, /version/],
      [{ ...posted, type: 'graded', unitsWon: 1 }, /result is missing/],
      [{ ...posted, type: 'graded', result: 'win' }, /unitsWon is missing/],
      [{ ...posted, type: 'graded', result: 'won', unitsWon: 1 }, /result is not one of/],
      [{ ...posted, type: 'graded', result: 'win', unitsWon: '1' }, /unitsWon is not a number/],
      [{ ...posted, type: 'graded', result: 'win', unitsWon: 1, unitsRisked: true }, /unitsRisked/],
      [{ ...posted, type: 'removed' }, /reason is missing/],
      [{ ...posted, type: 'removed', reason: 'spam' }, /reason is not one of/],
      [
        { ...posted, type: 'graded', result: 'win', unitsWon: 1, legs: [] },
        /legs belongs to a graded entry of version 2/,
      ],
      [
        { ...posted, v: 2, type: 'graded', result: 'win', unitsWon: 1, legs: [] },
        /sealed is not a sealed pick/,
      ],
      [{ ...settled, v: 1 }, /v is not 2 on a settled entry/],
      [{ ...settled, status: 'final', homeScore: null }, /homeScore is not a score/],
      [{ ...settled, status: 'postponed' }, /homeScore is not null/],
      [{ ...settled, event: 0 }, /event/],
      [{ ...settled, source: '' }, /source/],
      [
        {
          ...settled,
          type: 'corrected',
          before: { status: 'final', homeScore: 1, awayScore: 2 },
          reason: 'x',
          settled: 'nope',
        },
        /settled is not 64 lowercase hex/,
      ],
      [{ ...closed, prices: [{ ...closed.prices[0], fair: 1.2 }] }, /prices\[0\]/],
      [
        { ...closed, books: [{ book: 'x', prices: [['moneyline', 'left', null, -110]] }] },
        /books\[0\]\.prices/,
      ],
    ];
    for (const [value, message] of cases)
      expect(() => parseEntry(bytesOf(value)), JSON.stringify(value)).toThrow(message);
    expect(() => parseEntry(new TextEncoder().encode('{"v":1,'))).toThrow(/not JSON/);
    expect(() => parseEntry(new Uint8Array([0x7b, 0xff, 0x7d]))).toThrow(/not UTF-8/);
    expect(() => parseEntry(new TextEncoder().encode(`\ufeff${JSON.stringify(posted)}`))).toThrow(/not JSON/);
    expect(() => entryBytes({ ...posted, commitment: 'x' })).toThrow(/commitment/);
  });
});
