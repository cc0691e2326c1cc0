import { useId, useState, type FormEvent } from 'react';
import { LEAGUES } from '#common/leagues.js';
import { PLAN_INTERVALS, PLAN_LIMITS, type PlanInterval } from '#common/schemas/subscriptions.js';
import { Button } from '#client/components/ui/button.tsx';
import { Card } from '#client/components/ui/card.tsx';
import { FormField } from '#client/components/ui/form-field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { NativeSelect } from '#client/components/ui/native-select.tsx';
import { toast } from '#client/components/ui/use-toast.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { useCreatePlan, usePlans, useRetirePlan } from '../api/plans';
import { useSubscribers } from '../api/subscribers';
import { planPrice, planTrial } from './plan-format';

/** The capper's plans in their settings: create one, retire one (live subscriptions run to their end). */
export function ManagePlans({ username }: { username: string }) {
  const headingId = useId();
  const { data: plans } = usePlans(username);
  const { data: subscribers } = useSubscribers(username);
  const create = useCreatePlan(username);
  const retire = useRetirePlan(username);
  const [name, setName] = useState('');
  const [price, setPrice] = useState('');
  const [interval, setInterval] = useState<PlanInterval>('month');
  const [leagues, setLeagues] = useState<string[]>([]);
  const [trialDays, setTrialDays] = useState('0');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const dollars = Number(price);
    if (!name.trim()) return setProblem('Name is required');
    if (!Number.isFinite(dollars) || price.trim() === '') return setProblem('Enter a price in dollars');
    if (leagues.length === 0) return setProblem('Choose at least one league');
    setProblem(null);
    create.mutate(
      {
        name: name.trim(),
        priceCents: Math.round(dollars * 100),
        interval,
        leagues: leagues as typeof LEAGUES,
        trialDays: Number(trialDays) || 0,
      },
      {
        onSuccess: () => {
          toast({ title: 'Plan created', variant: 'success' });
          setName('');
          setPrice('');
          setLeagues([]);
          setTrialDays('0');
        },
        onError: (failure) => setProblem(errorMessage(failure)),
      },
    );
  };

  return (
    <section aria-labelledby={headingId}>
      <Card className="grid gap-5 p-6">
        <div className="grid gap-1">
          <h2 id={headingId} className="text-lg font-semibold tracking-tight">
            Subscription plans
          </h2>
          <p className="text-sm text-muted-foreground">
            Subscribers read every pick you post in a plan&apos;s leagues while subscribed. A retired plan
            takes no new subscribers; current ones keep it to the end of their period.
          </p>
        </div>
        {subscribers && (
          <p className="text-sm font-medium" data-testid="subscriber-count">
            {subscribers.count} live {subscribers.count === 1 ? 'subscriber' : 'subscribers'}
          </p>
        )}
        {plans && plans.length > 0 && (
          <ul className="grid gap-3" aria-label="Your plans">
            {plans.map((plan) => (
              <li
                key={plan.id}
                className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3"
              >
                <div className="grid gap-0.5">
                  <p className="font-medium [overflow-wrap:anywhere]">
                    {plan.name}{' '}
                    {!plan.active && <span className="text-sm text-muted-foreground">(retired)</span>}
                  </p>
                  <p className="text-sm text-muted-foreground">
                    {planPrice(plan)} · {plan.leagues.join(', ')}
                    {planTrial(plan) ? ` · ${planTrial(plan)}` : ''}
                  </p>
                </div>
                {plan.active && (
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={retire.isPending}
                    aria-label={`Retire ${plan.name}`}
                    onClick={() =>
                      retire.mutate(plan.id, {
                        onSuccess: () => toast({ title: 'Plan retired', variant: 'success' }),
                        onError: (failure) =>
                          toast({
                            title: 'Could not retire',
                            description: errorMessage(failure),
                            variant: 'destructive',
                          }),
                      })
                    }
                  >
                    Retire
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        <form onSubmit={submit} noValidate className="grid gap-4" aria-label="New plan">
          <FormField label="Plan name">
            <Input
              value={name}
              maxLength={PLAN_LIMITS.nameMax}
              onChange={(event) => setName(event.target.value)}
            />
          </FormField>
          <div className="grid grid-cols-2 gap-4">
            <FormField label="Price (USD)">
              <Input
                inputMode="decimal"
                placeholder="19.99"
                value={price}
                onChange={(event) => setPrice(event.target.value)}
              />
            </FormField>
            <FormField label="Every">
              <NativeSelect
                value={interval}
                onChange={(event) => setInterval(event.target.value as PlanInterval)}
              >
                {PLAN_INTERVALS.map((value) => (
                  <option key={value} value={value}>
                    {value === 'season' ? 'season (180 days)' : value}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
          </div>
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">Leagues</legend>
            <div className="flex flex-wrap gap-x-4 gap-y-2">
              {LEAGUES.map((league) => (
                <label key={league} className="flex min-h-8 items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={leagues.includes(league)}
                    onChange={(event) =>
                      setLeagues((current) =>
                        event.target.checked ? [...current, league] : current.filter((l) => l !== league),
                      )
                    }
                  />
                  {league}
                </label>
              ))}
            </div>
          </fieldset>
          <FormField label="Free trial (days)" hint={`0 for none, at most ${PLAN_LIMITS.trialMaxDays}`}>
            <Input
              inputMode="numeric"
              value={trialDays}
              onChange={(event) => setTrialDays(event.target.value.replace(/\D/g, '').slice(0, 2))}
            />
          </FormField>
          {problem && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {problem}
            </p>
          )}
          <Button type="submit" disabled={create.isPending} aria-busy={create.isPending} className="w-fit">
            Create plan
          </Button>
        </form>
      </Card>
    </section>
  );
}
