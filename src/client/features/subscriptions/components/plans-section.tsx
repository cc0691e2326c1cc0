import { Link } from 'wouter';
import { CalendarClock } from 'lucide-react';
import { buttonClasses } from '#client/components/ui/button.tsx';
import { Card } from '#client/components/ui/card.tsx';
import { useUser } from '#client/features/auth/index.ts';
import { authPath } from '#client/lib/auth-redirect.ts';
import { cn } from '#client/lib/cn.ts';
import { usePlans } from '../api/plans';
import { planPrice, planTrial } from './plan-format';

export function subscribePath(username: string, planId: number): string {
  return `/subscribe/${encodeURIComponent(username)}/${planId}`;
}

/** The storefront's subscription plans: price per period, leagues, trial, and Subscribe. Absent without any. */
export function PlansSection({ username }: { username: string }) {
  const { data: user } = useUser();
  const { data: plans } = usePlans(username);
  const active = plans?.filter((plan) => plan.active) ?? [];
  if (active.length === 0) return null;
  const own = user?.username.toLowerCase() === username.toLowerCase();
  return (
    <section aria-labelledby="plans-heading" className="grid gap-4">
      <h2 id="plans-heading" className="text-lg font-semibold tracking-tight">
        Plans
      </h2>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {active.map((plan) => {
          const trial = planTrial(plan);
          const href = subscribePath(username, plan.id);
          return (
            <li key={plan.id}>
              <Card className="grid h-full gap-3 p-5" aria-labelledby={`plan-${plan.id}-name`}>
                <h3 id={`plan-${plan.id}-name`} className="font-semibold [overflow-wrap:anywhere]">
                  {plan.name}
                </h3>
                <p className="text-2xl font-bold tabular-nums">{planPrice(plan)}</p>
                <p className="text-sm text-muted-foreground">Every pick in {plan.leagues.join(', ')}</p>
                {trial && (
                  <p className="flex items-center gap-1.5 text-sm font-medium text-primary">
                    <CalendarClock aria-hidden className="size-4" />
                    {trial}
                  </p>
                )}
                {!own && (
                  <Link
                    href={user ? href : authPath({ next: href })}
                    className={cn(buttonClasses('primary', 'md'), 'mt-auto')}
                    aria-label={`Subscribe to ${plan.name}`}
                  >
                    Subscribe
                  </Link>
                )}
              </Card>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
