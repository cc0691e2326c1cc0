import { describe, expect, it } from 'vitest';
import {
  MAX_LEGS,
  PARLAY_LEGS_MESSAGE,
  PARLAY_UNITS_MESSAGE,
  START_IN_FUTURE_MESSAGE,
  TOO_MANY_LEGS_MESSAGE,
} from './picks.js';
import { pickLegsProblem, UploadFormSchema } from './uploads.js';

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const leg = (overrides: Record<string, unknown> = {}) => ({
  league: 'NBA',
  home: 'Lakers',
  away: 'Celtics',
  startsAt: inHours(24),
  market: 'moneyline',
  side: 'Lakers',
  line: null,
  odds: -110,
  units: 1,
  ...overrides,
});
const form = (overrides: Record<string, unknown> = {}) => ({
  title: 'Sunday card',
  description: 'Two games',
  emailInformation: '',
  price: 10,
  category: 'General',
  externalVideoUrl: 'https://youtu.be/dQw4w9WgXcQ',
  ...overrides,
});
const legsMessages = (result: ReturnType<typeof UploadFormSchema.safeParse>) =>
  result.success
    ? []
    : result.error.issues.filter((issue) => issue.path[0] === 'legs').map((issue) => issue.message);

describe('UploadFormSchema legs', () => {
  it('takes no legs (an unverified pick) and legs with a parlay flag', () => {
    expect(UploadFormSchema.parse(form())).toMatchObject({ legs: [], parlay: false });
    const parsed = UploadFormSchema.parse(
      form({ legs: [leg(), leg({ home: 'Knicks', side: 'Knicks' })], parlay: true }),
    );
    expect(parsed.legs).toHaveLength(2);
    expect(parsed.parlay).toBe(true);
  });

  it("refuses what the server refuses, with the server's messages", () => {
    expect(legsMessages(UploadFormSchema.safeParse(form({ legs: [leg()], parlay: true })))).toEqual([
      PARLAY_LEGS_MESSAGE,
    ]);
    expect(
      legsMessages(UploadFormSchema.safeParse(form({ legs: [leg(), leg({ units: 2 })], parlay: true }))),
    ).toEqual([PARLAY_UNITS_MESSAGE]);
    expect(
      legsMessages(UploadFormSchema.safeParse(form({ legs: [leg({ startsAt: inHours(-1) })] }))),
    ).toEqual([START_IN_FUTURE_MESSAGE]);
    expect(
      legsMessages(
        UploadFormSchema.safeParse(form({ legs: Array.from({ length: MAX_LEGS + 1 }, () => leg()) })),
      ),
    ).toContain(TOO_MANY_LEGS_MESSAGE);
  });
});

describe('pickLegsProblem', () => {
  it('checks the start against the given time', () => {
    const [parsed] = UploadFormSchema.parse(form({ legs: [leg({ startsAt: '2030-01-01T00:00:00Z' })] })).legs;
    expect(pickLegsProblem({ legs: [parsed!], parlay: false }, new Date('2029-12-31T23:59:00Z'))).toBeNull();
    expect(pickLegsProblem({ legs: [parsed!], parlay: false }, new Date('2030-01-01T00:00:00Z'))).toBe(
      START_IN_FUTURE_MESSAGE,
    );
  });
});
