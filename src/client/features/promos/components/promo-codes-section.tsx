import { useState, type FormEvent } from 'react';
import { Tag } from 'lucide-react';
import { formatDollars } from '#common/money.js';
import { CreatePromoCodeSchema, type PromoCode } from '#common/schemas/promos.js';
import { Button } from '#client/components/ui/button.tsx';
import { Card } from '#client/components/ui/card.tsx';
import { FormAlert } from '#client/components/ui/form-alert.tsx';
import { FormField } from '#client/components/ui/form-field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { NativeSelect } from '#client/components/ui/native-select.tsx';
import { errorMessage } from '#client/lib/error-message.ts';
import { formatShortDate } from '#client/lib/format.ts';
import { useCreatePromoCode, usePromoCodes, useRetirePromoCode } from '../api/promo-codes';

const STATUS_LABEL: Record<PromoCode['status'], string> = {
  active: 'Active',
  expired: 'Expired',
  used_up: 'Used up',
  retired: 'Retired',
};

type Fields = 'code' | 'percentOff' | 'amountOff' | 'expiresAt' | 'maxUses';

/** The capper's promo codes on the dashboard (decision 039): create one, see its uses, retire it. */
export function PromoCodesSection({ username }: { username: string }) {
  const codes = usePromoCodes(username);
  const retire = useRetirePromoCode(username);
  return (
    <Card className="grid gap-5 p-5">
      <section aria-labelledby="promo-codes-heading" className="grid gap-5">
        <div className="grid gap-1">
          <h2
            id="promo-codes-heading"
            className="flex items-center gap-2 text-lg font-semibold tracking-tight"
          >
            <Tag aria-hidden className="size-5 text-primary" />
            Promo codes
          </h2>
          <p className="text-sm text-muted-foreground">
            Buyers enter a code at checkout and pay less; your earnings are on what they pay.
          </p>
        </div>
        <CreatePromoCodeForm username={username} />
        {codes.isError && (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(codes.error, 'Could not load your promo codes')}
          </p>
        )}
        {codes.data && codes.data.length > 0 && (
          <ul className="grid gap-3" aria-label="Your promo codes" data-testid="promo-codes">
            {codes.data.map((code) => (
              <li
                key={code.id}
                className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-3 text-sm"
                data-testid="promo-code"
              >
                <div className="grid min-w-0 gap-0.5">
                  <p className="font-mono font-semibold [overflow-wrap:anywhere]">{code.code}</p>
                  <p className="text-muted-foreground">
                    {code.kind === 'percent'
                      ? `${code.percentOff}% off`
                      : `${formatDollars(code.amountOff ?? 0)} off`}
                    {' · '}
                    {code.maxUses === null ? `${code.uses} used` : `${code.uses} of ${code.maxUses} used`}
                    {code.reserved > 0 && ` (${code.reserved} in checkout)`}
                    {' · '}
                    {code.expiresAt ? `expires ${formatShortDate(code.expiresAt)}` : 'no expiry'}
                    {' · '}
                    {code.duration === 'forever' ? 'every period' : 'first period'}
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  <span className="rounded-full bg-muted px-2 py-0.5 text-xs font-medium">
                    {STATUS_LABEL[code.status]}
                  </span>
                  {code.status !== 'retired' && (
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={retire.isPending}
                      onClick={() => retire.mutate(code.id)}
                    >
                      Retire<span className="sr-only"> {code.code}</span>
                    </Button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </Card>
  );
}

function CreatePromoCodeForm({ username }: { username: string }) {
  const create = useCreatePromoCode(username);
  const [code, setCode] = useState('');
  const [kind, setKind] = useState<'percent' | 'fixed'>('percent');
  const [value, setValue] = useState('');
  const [expires, setExpires] = useState('');
  const [maxUses, setMaxUses] = useState('');
  const [duration, setDuration] = useState<'once' | 'forever'>('once');
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const amount = value.trim() === '' ? undefined : Number(value);
    const input = {
      code,
      kind,
      ...(kind === 'percent' ? { percentOff: amount } : { amountOff: amount }),
      // The end of the chosen day, in the capper's own time zone.
      ...(expires && { expiresAt: new Date(`${expires}T23:59:59`).toISOString() }),
      ...(maxUses.trim() !== '' && { maxUses: Number(maxUses) }),
      duration,
    };
    const parsed = CreatePromoCodeSchema.safeParse(input);
    if (!parsed.success) {
      const found: Partial<Record<Fields, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Fields;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    create.mutate(input, {
      onSuccess: () => {
        setCode('');
        setValue('');
        setExpires('');
        setMaxUses('');
      },
    });
  };

  const alertId = 'promo-form-alert';
  return (
    <form
      onSubmit={submit}
      noValidate
      className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
      aria-label="New promo code"
      aria-describedby={create.isError ? alertId : undefined}
    >
      <FormAlert
        id={alertId}
        title="Code not created"
        message={create.isError ? errorMessage(create.error) : null}
        className="sm:col-span-2 lg:col-span-3"
      />
      <FormField label="Code" error={errors.code} hint="3–20 letters, digits or dashes">
        <Input
          value={code}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          className="uppercase"
        />
      </FormField>
      <FormField label="Discount">
        <NativeSelect value={kind} onChange={(event) => setKind(event.target.value as 'percent' | 'fixed')}>
          <option value="percent">Percent off</option>
          <option value="fixed">Amount off ($)</option>
        </NativeSelect>
      </FormField>
      <FormField
        label={kind === 'percent' ? 'Percent off' : 'Amount off ($)'}
        error={kind === 'percent' ? errors.percentOff : errors.amountOff}
        hint={kind === 'percent' ? '1 to 90' : 'A charge never goes below $0.50'}
      >
        <Input
          value={value}
          onChange={(event) => setValue(event.target.value)}
          inputMode="decimal"
          autoComplete="off"
        />
      </FormField>
      <FormField label="Expires (optional)" error={errors.expiresAt} hint="At the end of that day">
        <Input type="date" value={expires} onChange={(event) => setExpires(event.target.value)} />
      </FormField>
      <FormField label="Maximum uses (optional)" error={errors.maxUses}>
        <Input value={maxUses} onChange={(event) => setMaxUses(event.target.value)} inputMode="numeric" />
      </FormField>
      <FormField label="For subscriptions" hint="Plans only: a pick is one payment">
        <NativeSelect
          value={duration}
          onChange={(event) => setDuration(event.target.value as 'once' | 'forever')}
        >
          <option value="once">First period only</option>
          <option value="forever">Every period</option>
        </NativeSelect>
      </FormField>
      <div className="sm:col-span-2 lg:col-span-3">
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create code'}
        </Button>
      </div>
    </form>
  );
}
