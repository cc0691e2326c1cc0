import { useRef, useState, type FormEvent } from 'react';
import { FlaskConical } from 'lucide-react';
import type { Subscribe } from '#common/schemas/subscriptions.js';
import { Button } from '#client/components/ui/button.tsx';
import { FormField } from '#client/components/ui/form-field.tsx';
import { Input } from '#client/components/ui/input.tsx';

type Field = 'number' | 'expiry' | 'cvc';
type FieldErrors = Partial<Record<Field, string>>;

function formatCardNumber(input: string): string {
  return input
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

function formatExpiry(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 4);
  return digits.length <= 2 ? digits : `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

function parseExpiry(expiry: string): { month: number; year: number } | null {
  const match = /^(\d{2})\/(\d{2})$/.exec(expiry);
  return match ? { month: Number(match[1]), year: 2000 + Number(match[2]) } : null;
}

/**
 * The sandbox card form for a subscription: the card is saved with the sandbox, as Stripe.js would save it
 * with Stripe; whether it pays is the provider's to say. Same test cards as the single-pick checkout.
 */
export function SubscriptionCardForm({
  submitLabel,
  busyLabel = 'Subscribing…',
  busy,
  error,
  onSubmit,
}: {
  submitLabel: string;
  busyLabel?: string;
  busy: boolean;
  error: string | null;
  onSubmit: (card: Subscribe['card']) => void;
}) {
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const numberRef = useRef<HTMLInputElement>(null);
  const expiryRef = useRef<HTMLInputElement>(null);
  const cvcRef = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problems: FieldErrors = {};
    if (number.replace(/\D/g, '').length < 12) problems.number = 'Your card number is incomplete.';
    const parsed = parseExpiry(expiry);
    if (!parsed) problems.expiry = "Your card's expiration date is incomplete.";
    if (!/^\d{3,4}$/.test(cvc)) problems.cvc = "Your card's security code is incomplete.";
    setErrors(problems);
    const firstInvalid = (['number', 'expiry', 'cvc'] as const).find((field) => problems[field]);
    if (firstInvalid)
      return { number: numberRef, expiry: expiryRef, cvc: cvcRef }[firstInvalid].current?.focus();
    onSubmit({ number: number.replace(/\D/g, ''), expMonth: parsed!.month, expYear: parsed!.year, cvc });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Card for the subscription" className="grid gap-5">
      <div className="flex items-start gap-3 rounded-xl border border-dashed border-amber-500/60 bg-amber-50 p-4 text-sm text-amber-950">
        <FlaskConical aria-hidden className="mt-0.5 size-5 shrink-0" />
        <div className="grid gap-1">
          <p className="font-semibold">Sandbox — no real charge</p>
          <p>
            Test card <span className="font-mono whitespace-nowrap">4242 4242 4242 4242</span> with any future
            date and any CVC pays; <span className="font-mono whitespace-nowrap">4000 0000 0000 0002</span> is
            declined; <span className="font-mono whitespace-nowrap">4000 0000 0000 0341</span> is saved but
            its renewals fail.
          </p>
        </div>
      </div>
      <FormField label="Card number" error={errors.number}>
        <Input
          ref={numberRef}
          name="cardnumber"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          value={number}
          disabled={busy}
          onChange={(event) => setNumber(formatCardNumber(event.target.value))}
          className="font-mono tracking-wide"
        />
      </FormField>
      <div className="grid grid-cols-2 gap-4">
        <FormField label="Expiry date (MM/YY)" error={errors.expiry}>
          <Input
            ref={expiryRef}
            name="exp-date"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            value={expiry}
            disabled={busy}
            onChange={(event) => setExpiry(formatExpiry(event.target.value))}
            className="font-mono"
          />
        </FormField>
        <FormField label="CVC" error={errors.cvc}>
          <Input
            ref={cvcRef}
            name="cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            value={cvc}
            disabled={busy}
            onChange={(event) => setCvc(event.target.value.replace(/\D/g, '').slice(0, 4))}
            className="font-mono"
          />
        </FormField>
      </div>
      {error && (
        <p
          role="alert"
          className="rounded-lg border border-destructive/30 bg-destructive/5 p-3 text-sm font-medium text-destructive"
        >
          {error}
        </p>
      )}
      <Button type="submit" size="lg" disabled={busy} aria-busy={busy} className="w-full">
        {busy ? busyLabel : submitLabel}
      </Button>
    </form>
  );
}
