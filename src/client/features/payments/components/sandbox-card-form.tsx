import { useRef, useState, type FormEvent } from 'react';
import { FlaskConical } from 'lucide-react';
import { FormField } from '#client/components/ui/form-field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { errorMessage, errorStatus } from '#client/lib/error-message.ts';
import { useConfirmSandboxPayment } from '../api/confirm-sandbox-payment';
import { PAYMENT_ERROR_FALLBACK, type PaymentFormProps } from './payment-form-props';
import { PayButton, ProviderError } from './pay-button';

type Field = 'number' | 'expiry' | 'cvc';
type FieldErrors = Partial<Record<Field, string>>;

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

/**
 * The built-in provider's card form (docs/product-decisions.md 'Payments'): it sends the card to the sandbox the way
 * Stripe.js would send it to Stripe, and follows Stripe's test cards. Nothing is ever charged.
 */
export function SandboxCardForm({
  clientSecret,
  amount,
  onPaid,
  onPaymentError,
  onPriceChanged,
  recording,
}: PaymentFormProps) {
  const confirm = useConfirmSandboxPayment();
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [providerError, setProviderError] = useState<string | null>(null);
  const numberRef = useRef<HTMLInputElement>(null);
  const expiryRef = useRef<HTMLInputElement>(null);
  const cvcRef = useRef<HTMLInputElement>(null);

  const busy = confirm.isPending || recording;

  const fail = (message: string) => {
    setProviderError(message);
    onPaymentError(message);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problems = validate(number, expiry, cvc);
    setErrors(problems);
    const firstInvalid = (['number', 'expiry', 'cvc'] as const).find((field) => problems[field]);
    if (firstInvalid) {
      ({ number: numberRef, expiry: expiryRef, cvc: cvcRef })[firstInvalid].current?.focus();
      return;
    }
    const { month, year } = parseExpiry(expiry)!;
    setProviderError(null);
    confirm.mutate(
      { clientSecret, card: { number: number.replace(/\D/g, ''), expMonth: month, expYear: year, cvc } },
      {
        onSuccess: (result) => {
          if (result.status === 'succeeded') onPaid(result.paymentIntentId);
          else fail(result.error?.message || PAYMENT_ERROR_FALLBACK);
        },
        onError: (error) => {
          // The capper changed the price after this page showed it; nothing was charged.
          if (errorStatus(error) === 409) onPriceChanged(errorMessage(error, PAYMENT_ERROR_FALLBACK));
          else fail(errorMessage(error, PAYMENT_ERROR_FALLBACK));
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Card payment" className="grid gap-5">
      <div className="flex items-start gap-3 rounded-xl border border-dashed border-amber-500/60 bg-amber-50 p-4 text-sm text-amber-950">
        <FlaskConical aria-hidden className="mt-0.5 size-5 shrink-0" />
        <div className="grid gap-1">
          <p className="font-semibold">Sandbox — no real charge</p>
          <p>
            Test card <span className="font-mono whitespace-nowrap">4242 4242 4242 4242</span> with any future
            date and any CVC succeeds;{' '}
            <span className="font-mono whitespace-nowrap">4000 0000 0000 0002</span> is declined.
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
            onChange={(event) => setExpiry(formatExpiry(event.target.value, expiry))}
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
      <ProviderError message={providerError} />
      <PayButton amount={amount} busy={busy} />
    </form>
  );
}
