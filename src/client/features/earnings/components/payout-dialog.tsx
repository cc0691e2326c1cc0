import { useMemo } from 'react';
import { useForm, useWatch, type DefaultValues } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { LoaderCircle, MessageSquareText } from 'lucide-react';
import { PAYMENT_METHODS, PLATFORM_CUT_PERCENT, type PaymentMethod } from '#common/constants.js';
import { centsToDollars, dollarsToCents, formatDollars, payoutBreakdown } from '#common/money.js';
import { OVERDRAW_MESSAGE, PayoutRequestSchema } from '#common/schemas/earnings.js';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#client/components/ui/dialog.tsx';
import { FormField } from '#client/components/ui/form-field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { appConfig } from '#client/lib/app-config.ts';
import { cn } from '#client/lib/cn.ts';
import { PAYOUT_ERROR_FALLBACK, useRequestPayout } from '../api/request-payout';
import { errorMessage } from '#client/lib/error-message.ts';
import { PAYMENT_METHOD_LABELS } from './payment-methods';

const ACCOUNT_PLACEHOLDERS: Record<PaymentMethod, string> = {
  paypal: 'The e-mail address of your PayPal account',
  bank: 'Account holder, bank name, routing and account number',
  venmo: 'Your Venmo username or phone number',
  other: 'How we should pay you',
};

const MIN_PAYOUT = 1;

type PayoutFormInput = z.input<typeof PayoutRequestSchema>;
type PayoutFormOutput = z.output<typeof PayoutRequestSchema>;

/** The shared schema (spec 5 'Payout form'), plus the one rule only this screen knows: the balance. */
function payoutSchemaFor(availableDollars: number) {
  return PayoutRequestSchema.superRefine((value, ctx) => {
    // In cents, so $10.10 against $10.10 is never refused by a rounding error.
    if (dollarsToCents(value.amount) > dollarsToCents(availableDollars)) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: OVERDRAW_MESSAGE });
    }
  });
}

// No amount: an untouched field must read as missing ('Amount is required'), not as 0 or ''.
const DEFAULT_VALUES: DefaultValues<PayoutFormInput> = {
  amount: undefined,
  paymentMethod: 'paypal',
  accountDetails: '',
};

type PayoutDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Dollars the ledger still allows (sales + bonus − payouts requested). */
  available: number;
};

export function PayoutDialog({ open, onOpenChange, available }: PayoutDialogProps) {
  const payout = useRequestPayout();

  const changeOpen = (next: boolean) => {
    // Closing mid-request would hide the outcome: the dialog stays until the server has answered.
    if (!next && payout.isPending) return;
    onOpenChange(next);
  };

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Request Payout</DialogTitle>
          <DialogDescription>
            Available for payout: <strong className="text-foreground">{formatDollars(available)}</strong>. A{' '}
            {PLATFORM_CUT_PERCENT}% processing fee is deducted from payouts.
          </DialogDescription>
        </DialogHeader>
        {/* The content unmounts when the dialog closes, so each opening starts a fresh form (spec 4: reset). */}
        <PayoutForm
          available={available}
          pending={payout.isPending}
          onSubmit={(values, onRefused) =>
            payout.mutate(values, {
              onSuccess: () => onOpenChange(false),
              onError: (error) => onRefused(errorMessage(error, PAYOUT_ERROR_FALLBACK)),
            })
          }
        />
      </DialogContent>
    </Dialog>
  );
}

type PayoutFormProps = {
  available: number;
  pending: boolean;
  /** `onRefused` receives the server's message when it turns the request down. */
  onSubmit: (values: PayoutFormOutput, onRefused: (message: string) => void) => void;
};

function PayoutForm({ available, pending, onSubmit: submit }: PayoutFormProps) {
  const schema = useMemo(() => payoutSchemaFor(available), [available]);
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors },
  } = useForm<PayoutFormInput, unknown, PayoutFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: DEFAULT_VALUES,
  });
  const amount = useWatch({ control, name: 'amount' });
  const method = useWatch({ control, name: 'paymentMethod' }) as PaymentMethod;
  const onSubmit = handleSubmit((values) =>
    submit(values, (message) => {
      // The ledger moved since the page loaded (another request, another tab): say so at the field too.
      if (message === OVERDRAW_MESSAGE) setError('amount', { message }, { shouldFocus: true });
    }),
  );

  const phone = appConfig.supportPhone;
  const smsHref = `sms:${phone.replace(/[^\d+]/g, '')}`;

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Request payout" className="grid gap-5">
      <FormField
        label="Amount ($)"
        error={errors.amount?.message}
        hint={`Minimum ${formatDollars(MIN_PAYOUT)}, at most ${formatDollars(available)}.`}
      >
        <Input
          type="number"
          inputMode="decimal"
          min={MIN_PAYOUT}
          step={0.01}
          max={available}
          placeholder="0.00"
          {...register('amount', {
            // An empty field is "missing" (spec 5: 'Amount is required'), not NaN.
            setValueAs: (value: unknown) =>
              value === '' || value === null || value === undefined ? undefined : Number(value),
          })}
        />
      </FormField>
      <PayoutBreakdown amount={amount} />
      <FormField label="Payment method" error={errors.paymentMethod?.message}>
        <select
          className={cn(
            'h-10 w-full min-w-0 cursor-pointer rounded-lg border border-input bg-card px-3 text-sm text-foreground shadow-xs',
            'focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0',
            'aria-invalid:border-destructive',
          )}
          {...register('paymentMethod')}
        >
          {PAYMENT_METHODS.map((value) => (
            <option key={value} value={value}>
              {PAYMENT_METHOD_LABELS[value]}
            </option>
          ))}
        </select>
      </FormField>
      <FormField label="Account details" error={errors.accountDetails?.message}>
        <textarea
          rows={3}
          placeholder={ACCOUNT_PLACEHOLDERS[method] ?? ACCOUNT_PLACEHOLDERS.other}
          className={cn(
            'min-h-20 w-full min-w-0 rounded-lg border border-input bg-card px-3 py-2 text-sm text-foreground shadow-xs',
            'placeholder:text-muted-foreground/80 focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0',
            'aria-invalid:border-destructive',
          )}
          {...register('accountDetails')}
        />
      </FormField>
      <p className="flex items-start gap-2 rounded-lg bg-muted p-3 text-sm">
        <MessageSquareText aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
        <span>
          After submitting, please text{' '}
          <a
            href={smsHref}
            className="font-semibold whitespace-nowrap text-primary underline-offset-4 hover:underline"
          >
            {phone}
          </a>{' '}
          so our team can process your payout.
        </span>
      </p>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={pending}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" disabled={pending}>
          {pending ? (
            <>
              <LoaderCircle aria-hidden className="animate-spin" />
              Processing...
            </>
          ) : (
            'Submit Request'
          )}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** docs/product-decisions.md 'Money': the dialog shows the amount, the 10% fee and what the capper receives. */
function PayoutBreakdown({ amount }: { amount: unknown }) {
  const valid = typeof amount === 'number' && Number.isFinite(amount) && amount > 0;
  const { feeCents, netCents } = payoutBreakdown(valid ? dollarsToCents(amount) : 0);
  const requested = valid ? amount : 0;
  return (
    <dl className="grid gap-1.5 rounded-lg border p-3 text-sm" aria-label="Payout breakdown">
      <div className="flex justify-between gap-4">
        <dt className="text-muted-foreground">Amount requested</dt>
        <dd className="tabular-nums">{formatDollars(requested)}</dd>
      </div>
      <div className="flex justify-between gap-4">
        <dt className="text-muted-foreground">Processing fee ({PLATFORM_CUT_PERCENT}%)</dt>
        <dd className="tabular-nums">−{formatDollars(centsToDollars(feeCents))}</dd>
      </div>
      <div className="flex justify-between gap-4 border-t pt-1.5 font-semibold">
        <dt>You receive</dt>
        <dd className="tabular-nums" data-testid="payout-net">
          {formatDollars(centsToDollars(netCents))}
        </dd>
      </div>
    </dl>
  );
}
