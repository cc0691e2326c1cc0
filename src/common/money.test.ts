import { describe, expect, it } from 'vitest';
import {
  centsToDollars,
  dollarsToCents,
  formatDollars,
  formatPrice,
  payoutBreakdown,
} from './money.js';

describe('money', () => {
  it('converts dollars and cents without float drift', () => {
    expect(dollarsToCents(12.99)).toBe(1299);
    expect(dollarsToCents(0.1 + 0.2)).toBe(30);
    expect(centsToDollars(1299)).toBe(12.99);
  });

  it('shows a price as charged: to the cent, or whole dollars when it has no cents', () => {
    expect(formatPrice(12.99)).toBe('$12.99');
    expect(formatPrice(9.9)).toBe('$9.90');
    expect(formatPrice(1)).toBe('$1');
    expect(formatPrice(10)).toBe('$10');
    expect(formatPrice(0.1 + 0.2)).toBe('$0.30');
    expect(formatDollars(12.5)).toBe('$12.50');
    expect(formatDollars(0)).toBe('$0.00');
  });

  it('splits a payout into a 10% fee and the net, adding up exactly', () => {
    expect(payoutBreakdown(10000)).toEqual({ feeCents: 1000, netCents: 9000 });
    expect(payoutBreakdown(1005)).toEqual({ feeCents: 101, netCents: 904 });
    const { feeCents, netCents } = payoutBreakdown(333);
    expect(feeCents + netCents).toBe(333);
  });
});
