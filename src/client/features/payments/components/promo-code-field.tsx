import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Tag, X } from 'lucide-react';
import { formatDollars } from '#common/money.js';
import type { PromoQuote } from '#common/schemas/promos.js';
import { Button } from '#client/components/ui/button.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { errorMessage } from '#client/lib/error-message.ts';
import { useCheckPromoCode } from '../api/check-promo-code';

/**
 * "Add promo code" (decision 039): a link that opens a field; Apply checks the code with the server, which
 * then prepares the payment at the discounted amount. The refusal's sentence stays beside the field;
 * Remove goes back to the full price. For a pick (`videoId`) or a subscription plan (`planId`).
 */
export function PromoCodeField({
  videoId,
  planId,
  applied,
  discount,
  error,
  onApply,
  onRemove,
}: {
  videoId?: number;
  planId?: number;
  applied: string | null;
  discount: number | null;
  /** A refusal from preparing the payment (e.g. the last use was just taken). */
  error: string | null;
  onApply: (code: string, quote: PromoQuote) => void;
  onRemove: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const check = useCheckPromoCode();
  const inputId = useId();
  const errorId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  // The field opens on the link's press: the keyboard goes straight to it.
  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);
  const shownError = check.isError ? errorMessage(check.error, 'This code cannot be used') : error;

  if (applied) {
    return (
      <div
        className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-emerald-600/30 bg-emerald-50 px-3 py-2 text-sm text-emerald-900"
        data-testid="promo-applied"
      >
        <span className="flex items-center gap-2">
          <Tag aria-hidden className="size-4" />
          <span>
            Code <strong>{applied}</strong> applied
            {discount !== null && <> — {formatDollars(discount)} off</>}
          </span>
        </span>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          onClick={() => {
            setCode('');
            check.reset();
            onRemove();
          }}
        >
          <X aria-hidden />
          Remove<span className="sr-only"> promo code {applied}</span>
        </Button>
      </div>
    );
  }

  if (!open) {
    return (
      <div className="grid gap-1">
        <button
          type="button"
          className="w-fit text-sm font-medium text-primary underline-offset-4 hover:underline"
          onClick={() => setOpen(true)}
        >
          Add promo code
        </button>
        {error && (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = code.trim();
    if (!trimmed) return;
    check.mutate({ videoId, planId, code: trimmed }, { onSuccess: (quote) => onApply(quote.code, quote) });
  };

  return (
    <form className="grid gap-1.5" onSubmit={submit} noValidate>
      <label htmlFor={inputId} className="text-sm font-medium">
        Promo code
      </label>
      <div className="flex gap-2">
        <Input
          id={inputId}
          value={code}
          onChange={(event) => {
            setCode(event.target.value);
            if (check.isError) check.reset();
          }}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={20}
          ref={inputRef}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={shownError ? errorId : undefined}
          className="uppercase"
        />
        <Button type="submit" variant="outline" disabled={check.isPending || !code.trim()}>
          {check.isPending ? 'Checking…' : 'Apply'}
        </Button>
      </div>
      {shownError && (
        <p id={errorId} role="alert" className="text-sm text-destructive" data-testid="promo-error">
          {shownError}
        </p>
      )}
    </form>
  );
}
