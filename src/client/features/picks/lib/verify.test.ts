import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalBytes, type SealedPick } from '#common/pick-seal.js';
import { verifyCommitment } from './verify';

const sealed: SealedPick = {
  v: 1,
  capper: 'sharp_sam',
  videoId: 42,
  postedAt: '2026-11-25T18:30:00Z',
  selections: 'Lakers -3.5 (1u), over 220.5 — “café” ✓',
  legs: [
    {
      league: 'NBA',
      home: 'Lakers',
      away: 'Celtics',
      startsAt: '2026-11-26T00:30:00Z',
      market: 'spread',
      side: 'Lakers',
      line: -3.5,
      odds: -110,
      units: 1,
    },
    {
      league: 'NBA',
      home: 'Knicks',
      away: 'Heat',
      startsAt: '2026-11-26T01:00:00Z',
      market: 'total',
      side: 'over',
      line: 220.5,
      odds: 105,
      units: 1.5,
    },
  ],
  parlay: false,
  salt: 'a1'.repeat(32),
};

// The server's way (node:crypto over the same canonical bytes): the commitment shown before the games.
const serverCommitment = (pick: SealedPick) =>
  createHash('sha256').update(canonicalBytes(pick)).digest('hex');

describe('verifyCommitment (Web Crypto)', () => {
  it('matches the commitment the server sealed, whatever the order of the keys it arrives in', async () => {
    const expected = serverCommitment(sealed);
    const reordered = JSON.parse(
      JSON.stringify(Object.fromEntries(Object.entries(sealed).reverse())),
    ) as unknown;
    const result = await verifyCommitment(reordered, expected);
    expect(result).toEqual({ status: 'matched', computed: expected, expected });
    expect(result.computed).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts the shown commitment in upper case or with spaces around it', async () => {
    const expected = serverCommitment(sealed);
    expect((await verifyCommitment(sealed, ` ${expected.toUpperCase()} `)).status).toBe('matched');
  });

  it.each([
    ['one leg line', { ...sealed, legs: [{ ...sealed.legs[0]!, line: -4.5 }, sealed.legs[1]!] }],
    ['one leg odds', { ...sealed, legs: [sealed.legs[0]!, { ...sealed.legs[1]!, odds: 110 }] }],
    ['a leg dropped', { ...sealed, legs: [sealed.legs[0]!] }],
    ['the salt', { ...sealed, salt: 'b2'.repeat(32) }],
    ['the selections', { ...sealed, selections: 'Celtics +3.5 (1u)' }],
    ['parlay or not', { ...sealed, parlay: true }],
  ])('gives a mismatch when %s changed, with both hex values', async (_change, changed) => {
    const expected = serverCommitment(sealed);
    const result = await verifyCommitment(changed, expected);
    expect(result.status).toBe('mismatched');
    expect(result.expected).toBe(expected);
    expect(result.computed).toBe(serverCommitment(changed));
    expect(result.computed).not.toBe(expected);
  });

  it('says so when there is no Web Crypto to compute with', async () => {
    await expect(verifyCommitment(sealed, serverCommitment(sealed), null)).rejects.toThrow(/HTTPS/);
  });
});
