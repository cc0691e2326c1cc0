import { useId, type ReactElement, type ReactNode } from 'react';
import { Slot } from 'radix-ui';
import { cn } from '#client/lib/cn.ts';
import { Label } from './label';

type FormFieldProps = {
  label: ReactNode;
  /** The validation message; when present the control is marked invalid and points at it. */
  error?: string;
  hint?: ReactNode;
  className?: string;
  /** Exactly one form control: it receives id, aria-invalid and aria-describedby. */
  children: ReactElement;
};

export function FormField({ label, error, hint, className, children }: FormFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    // content-start: beside a taller field (one with a hint) the rows stay packed at the top, so two
    // controls side by side line up.
    <div className={cn('grid content-start gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      <Slot.Root id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy}>
        {children}
      </Slot.Root>
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
