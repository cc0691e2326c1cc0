import { describe, expect, it } from 'vitest';
import { fairProbability } from '#common/clv.js';
import { bestPrice, closingOf, offeredLines, sideCode, snapshotDigest, snapshotOf } from './prices.js';
import type { BookPrices } from './provider.js';

const game = { home: 'Los Angeles Lakers', away: 'Boston Celtics' };

function book(key: string, prices: BookPrices['prices']): BookPrices {
  return { book: key, title: key.toUpperCase(), updatedAt: '2026-11-28T18:00:00Z', prices };
}

const books: BookPrices[] = [
  book('fanduel', [
    { market: 'moneyline', side: 'Los Angeles Lakers', point: null, price: -150 },
    { market: 'moneyline', side: 'Boston Celtics', point: null, price: 130 },
    { market: 'spread', side: 'Los Angeles Lakers', point: -3.5, price: -110 },
    { market: 'spread', side: 'Boston Celtics', point: 3.5, price: -110 },
    { market: 'total', side: 'over', point: 221.5, price: -108 },
    { market: 'total', side: 'under', point: 221.5, price: -112 },
  ]),
  book('draftkings', [
    { market: 'moneyline', side: 'los angeles lakers', point: null, price: -145 },
    { market: 'moneyline', side: 'Boston Celtics', point: null, price: 122 },
    { market: 'spread', side: 'Los Angeles Lakers', point: -4, price: -105 },
    { market: 'spread', side: 'Boston Celtics', point: 4, price: -115 },
    { market: 'total', side: 'over', point: 221.5, price: -115 },
    { market: 'total', side: 'under', point: 221.5, price: -105 },
  ]),
];

describe('snapshots', () => {
  it('writes team sides by their place in the game, books in key order, and ignores unknown sides', () => {
    const snapshot = snapshotOf(game, [
      ...books,
      book('bovada', [{ market: 'moneyline', side: 'Draw', point: null, price: 250 }]),
    ]);
    expect(snapshot.books.map((b) => b.key)).toEqual(['draftkings', 'fanduel']);
    expect(snapshot.books[0]!.prices[0]).toEqual(['m', 'h', null, -145]);
    expect(sideCode('total', 'Over', game)).toBe('o');
    expect(sideCode('spread', 'Knicks', game)).toBeNull();
  });

  it('has a digest that changes with a price and not otherwise', () => {
    const a = snapshotOf(game, books);
    expect(snapshotDigest(snapshotOf(game, books))).toBe(snapshotDigest(a));
    const moved = structuredClone(books);
    moved[0]!.prices[0]!.price = -155;
    expect(snapshotDigest(snapshotOf(game, moved))).not.toBe(snapshotDigest(a));
  });
});

describe('prices for a leg', () => {
  const snapshot = snapshotOf(game, books);

  it('takes the best price among books for the side and line', () => {
    expect(bestPrice(snapshot, 'moneyline', 'h', null)).toMatchObject({ book: 'draftkings', price: -145 });
    expect(bestPrice(snapshot, 'moneyline', 'a', null)).toMatchObject({ book: 'fanduel', price: 130 });
    expect(bestPrice(snapshot, 'total', 'o', 221.5)).toMatchObject({ book: 'fanduel', price: -108 });
    expect(bestPrice(snapshot, 'spread', 'h', -3.5)).toMatchObject({ book: 'fanduel', price: -110 });
    expect(bestPrice(snapshot, 'spread', 'h', -2.5)).toBeNull();
  });

  it('lists the lines offered for a side, each at its best price', () => {
    expect(offeredLines(snapshot, 'spread', 'h').map((o) => [o.point, o.price])).toEqual([
      [-4, -105],
      [-3.5, -110],
    ]);
  });

  it('measures the close from books that priced both sides of the same line', () => {
    // Over 221.5: fanduel −108/−112 and draftkings −115/−105: the median (mean of two) of their fair values.
    const over = closingOf(snapshot, 'total', 'o', 221.5)!;
    expect(over.odds).toBe(-108);
    expect(over.fair).toBeCloseTo((fairProbability(-108, -112) + fairProbability(-115, -105)) / 2, 12);
    // Lakers −3.5: only fanduel priced both sides (Celtics +3.5).
    expect(closingOf(snapshot, 'spread', 'h', -3.5)!.fair).toBeCloseTo(0.5, 12);
    expect(closingOf(snapshot, 'spread', 'h', -7)).toBeNull();
  });
});
