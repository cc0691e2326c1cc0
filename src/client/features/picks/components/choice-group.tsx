import { useId, type ReactNode } from 'react';
import { cn } from '#client/lib/cn.ts';

export interface Choice {
  value: string;
  label: ReactNode;
}

/**
 * Radio buttons as large tappable tiles (a phone's thumb, not a mouse): a fieldset whose legend names the
 * choice, with its error said by every option (aria-describedby).
 */
export function ChoiceGroup({
  legend,
  name,
  choices,
  value,
  onChange,
  error,
  hint,
  disabled,
  columns = 2,
}: {
  legend: ReactNode;
  name: string;
  choices: readonly Choice[];
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: ReactNode;
  disabled?: boolean;
  columns?: 1 | 2;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset className="grid min-w-0 gap-2" disabled={disabled}>
      <legend className="mb-2 text-sm leading-none font-medium">{legend}</legend>
      <div className={cn('grid gap-2', columns === 2 && 'sm:grid-cols-2')}>
        {choices.map((choice) => (
          <label
            key={choice.value}
            className={cn(
              'flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border bg-card px-3 py-2 text-sm shadow-xs transition-colors',
              'hover:bg-muted has-checked:border-primary has-checked:bg-primary/5 has-focus-visible:outline-2 has-focus-visible:outline-ring',
              error && 'border-destructive',
            )}
          >
            <input
              type="radio"
              name={name}
              value={choice.value}
              checked={value === choice.value}
              onChange={() => onChange(choice.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy}
              className="size-4 shrink-0 accent-primary"
            />
            <span className="min-w-0 break-words">{choice.label}</span>
          </label>
        ))}
      </div>
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
    </fieldset>
  );
}
