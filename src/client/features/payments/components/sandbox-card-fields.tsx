import { useRef, useState, type ReactNode } from 'react';
import { FlaskConical } from 'lucide-react';
import { FormField } from '#client/components/ui/form-field.tsx';
import { Input } from '#client/components/ui/input.tsx';

type Field = 'number' | 'expiry' | 'cvc';
type FieldErrors = Partial<Record<Field, string>>;

/** A card as the sandbox takes it, like Stripe.js's. */
export type SandboxCard = { number: string; expMonth: number; expYear: number; cvc: string };

/** Digits in groups of four, as printed on the card (19 digits at most). */
export function formatCardNumber(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** MM/YY, the slash added once the month is typed. */
export function formatExpiry(input: string, previous: string): string {
  const digits = input.replace(/\D/g, '').slice(0, 4);
  // Deleting the slash deletes the month's last digit too, or the slash would come straight back.
  if (previous.endsWith('/') && input.length < previous.length) return digits.slice(0, 1);
  if (digits.length < 2) return digits;
  if (digits.length === 2) return input.length > previous.length ? `${digits}/` : digits;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

function parseExpiry(expiry: string): { month: number; year: number } | null {
  const match = /^(\d{2})\/(\d{2})$/.exec(expiry);
  if (!match) return null;
  return { month: Number(match[1]), year: 2000 + Number(match[2]) };
}

// Only "is it complete?" here, in Stripe's words; whether the card is good is the provider's to say.
function validate(number: string, expiry: string, cvc: string): FieldErrors {
  const errors: FieldErrors = {};
  const digits = number.replace(/\D/g, '');
  if (digits.length < 12) errors.number = 'Your card number is incomplete.';
  if (!parseExpiry(expiry)) errors.expiry = "Your card's expiration date is incomplete.";
  if (!/^\d{3,4}$/.test(cvc)) errors.cvc = "Your card's security code is incomplete.";
  return errors;
}

/** The sandbox card's fields and their messages; `read()` checks them, focusing the first incomplete one. */
export function useSandboxCard() {
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const refs = {
    number: useRef<HTMLInputElement>(null),
    expiry: useRef<HTMLInputElement>(null),
    cvc: useRef<HTMLInputElement>(null),
  };
  const read = (): SandboxCard | null => {
    const problems = validate(number, expiry, cvc);
    setErrors(problems);
    const firstInvalid = (['number', 'expiry', 'cvc'] as const).find((field) => problems[field]);
    if (firstInvalid) {
      refs[firstInvalid].current?.focus();
      return null;
    }
    const { month, year } = parseExpiry(expiry)!;
    return { number: number.replace(/\D/g, ''), expMonth: month, expYear: year, cvc };
  };
  // The values and the refs apart: a render reads the one, only events touch the other.
  return { fields: { number, setNumber, expiry, setExpiry, cvc, setCvc, errors }, refs, read };
}

type SandboxCardState = ReturnType<typeof useSandboxCard>;

/** The sandbox's notice, with the test cards `testCards` names, and the card's three fields. */
export function SandboxCardFields({
  fields: card,
  refs,
  busy,
  testCards,
}: {
  fields: SandboxCardState['fields'];
  refs: SandboxCardState['refs'];
  busy: boolean;
  testCards: ReactNode;
}) {
  const { number: numberRef, expiry: expiryRef, cvc: cvcRef } = refs;
  return (
    <>
      <div className="flex items-start gap-3 rounded-xl border border-dashed border-amber-500/60 bg-amber-50 p-4 text-sm text-amber-950">
        <FlaskConical aria-hidden className="mt-0.5 size-5 shrink-0" />
        <div className="grid gap-1">
          <p className="font-semibold">Sandbox — no real charge</p>
          <p>{testCards}</p>
        </div>
      </div>
      <FormField label="Card number" error={card.errors.number}>
        <Input
          ref={numberRef}
          name="cardnumber"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          value={card.number}
          disabled={busy}
          onChange={(event) => card.setNumber(formatCardNumber(event.target.value))}
          className="font-mono tracking-wide"
        />
      </FormField>
      <div className="grid grid-cols-2 gap-4">
        <FormField label="Expiry date (MM/YY)" error={card.errors.expiry}>
          <Input
            ref={expiryRef}
            name="exp-date"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            value={card.expiry}
            disabled={busy}
            onChange={(event) => card.setExpiry(formatExpiry(event.target.value, card.expiry))}
            className="font-mono"
          />
        </FormField>
        <FormField label="CVC" error={card.errors.cvc}>
          <Input
            ref={cvcRef}
            name="cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            value={card.cvc}
            disabled={busy}
            onChange={(event) => card.setCvc(event.target.value.replace(/\D/g, '').slice(0, 4))}
            className="font-mono"
          />
        </FormField>
      </div>
    </>
  );
}
