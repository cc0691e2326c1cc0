import { centsToDollars, formatPrice } from '#common/money.js';
import type { Plan } from '#common/schemas/subscriptions.js';

const PER: Record<Plan['interval'], string> = { week: 'week', month: 'month', season: 'season (180 days)' };

/** "month", "week", "season (180 days)" */
export function perPeriod(plan: Pick<Plan, 'interval'>): string {
  return PER[plan.interval];
}

/** "$19.99 / month" */
export function planPrice(plan: Pick<Plan, 'priceCents' | 'interval'>): string {
  return `${formatPrice(centsToDollars(plan.priceCents))} / ${PER[plan.interval]}`;
}

export function planTrial(plan: Pick<Plan, 'trialDays'>): string | null {
  if (plan.trialDays === 0) return null;
  return `${plan.trialDays}-day free trial`;
}

const DAY = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

export function formatDay(iso: string | null): string {
  return iso ? DAY.format(new Date(iso)) : '—';
}
