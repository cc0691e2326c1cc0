import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from '../common/pick-log/index.js';
import { canonicalBytes, commitmentOf, type SealedPick } from '../common/pick-seal.js';
import { entryFromBase64, isCanonical, sealedCommitment } from './entry-bytes.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('entryFromBase64', () => {
  it('decodes what fromBase64 decodes, and refuses what it refuses', () => {
    for (const text of ['', 'AA==', 'AAE=', 'AAEC', 'eyJ2IjoxfQ==', toBase64(utf8('{"capper":"Zoë"}'))])
      expect(entryFromBase64(text)).toEqual(Buffer.from(fromBase64(text)));
    // Unpadded, URL-safe, whitespace, non-zero pad bits, junk: Node would decode each, the format does not.
    for (const text of ['AA', 'AA=', '-_8=', 'AA==\n', ' AAEC', 'AB==', 'AAF=', 'AA==AA==', '!!!!'])
      expect([text, entryFromBase64(text)]).toEqual([text, null]);
  });
});

describe('isCanonical', () => {
  const agree = (value: object) => {
    const bytes = canonicalBytes(value);
    expect(isCanonical(JSON.parse(new TextDecoder().decode(bytes)), bytes)).toBe(true);
  };

  it('accepts the common canonicaliser’s bytes: flat, nested, unicode, numbers', () => {
    agree({
      v: 1,
      type: 'graded',
      videoId: 7,
      capper: 'zoë',
      result: null,
      unitsWon: -1.1,
      unitsRisked: 1e21,
    });
    agree({ b: [1, { z: 2, a: 'x' }], a: { '€': 1, $: 2, '\u{1F600}': 3 } });
    agree({
      text: 'quote " backslash \\ tab \t newline \n control \u0001 emoji 😀 \u2028',
      n: 0.000001,
      m: 1e-7,
    });
    agree({ '\u{10000}': 1, '\uFFFF': 2, a: true, b: false });
    // Integer-like keys, which V8 enumerates before the others and in numeric order.
    agree({ '10': 1, '9': { '2': [], '10': null }, a: 3 });
  });

  it('refuses other bytes for the same value', () => {
    const entry = { v: 1, type: 'posted', videoId: 7, capper: 'zoe', unitsWon: 1.5 };
    const refused = [
      JSON.stringify(entry, null, 1),
      '{"capper":"zoe","type":"posted","v":1,"videoId":7,"unitsWon":1.5}', // keys unsorted
      '{"capper":"zoe","type":"posted","unitsWon":1.50,"v":1,"videoId":7}', // number written otherwise
      '{"capper":"zo\\u0065","type":"posted","unitsWon":1.5,"v":1,"videoId":7}', // needless escape
      '{"capper":"zoe","capper":"zoe","type":"posted","unitsWon":1.5,"v":1,"videoId":7}', // duplicate key
      '\uFEFF{"capper":"zoe","type":"posted","unitsWon":1.5,"v":1,"videoId":7}', // byte order mark
    ];
    for (const text of refused)
      expect([text, isCanonical(JSON.parse(text.replace(/^\uFEFF/, '')), utf8(text))]).toEqual([text, false]);
    expect(isCanonical(entry, canonicalBytes(entry))).toBe(true);
  });

  it('refuses a lone surrogate, which RFC 8785 does not allow, and bytes that are not UTF-8', () => {
    const text = '{"capper":"\\ud800"}';
    expect(isCanonical(JSON.parse(text), utf8(text))).toBe(false);
    expect(isCanonical({}, new Uint8Array([0x7b, 0xff, 0x7d]))).toBe(false);
  });
});

describe('sealedCommitment', () => {
  it('is the commitment pick-seal computes, surrogates included', async () => {
    const sealed: SealedPick = {
      v: 2,
      capper: 'Zoë 😀',
      videoId: 7,
      postedAt: '2026-11-25T18:30:00Z',
      selections: 'Lakers \u2028 "ML" \\ \ud800',
      legs: [
        {
          league: 'NBA',
          home: 'Lakers',
          away: 'Celtics',
          startsAt: '2026-11-26T00:00:00Z',
          market: 'moneyline',
          side: 'home',
          line: null,
          odds: -110,
          units: 1.5,
          game: 'odds:1',
          price: { book: 'b', odds: -115, line: null, at: '2026-11-25T18:00:00Z' },
        },
      ],
      parlay: false,
      salt: '0'.repeat(64),
    };
    const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest());
    expect(sealedCommitment(sealed)).toBe(await commitmentOf(sealed, sha256));
    const plain = { ...sealed, selections: 'Lakers ML', capper: 'zoe' };
    expect(sealedCommitment(plain)).toBe(await commitmentOf(plain, sha256));
  });
});
