import { useEffect, useRef } from 'react';
import { AlertTriangle } from 'lucide-react';
import { cn } from '#client/lib/cn.ts';

type FormAlertProps = {
  id: string;
  /** What went wrong, e.g. 'Login failed'; nothing is rendered without a message. */
  title: string;
  message: string | null;
  className?: string;
};

/**
 * Why a whole form was refused (a wrong password, a server error), shown in the form itself rather than only
 * in a passing toast. It is announced when it appears and takes focus, so a keyboard or screen-reader user
 * lands on the reason, then Tab leads back into the fields. The form names it with `aria-describedby`.
 */
export function FormAlert({ id, title, message, className }: FormAlertProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) ref.current?.focus();
  }, [message]);
  if (!message) return null;
  return (
    <div
      ref={ref}
      id={id}
      role="alert"
      tabIndex={-1}
      className={cn(
        'flex items-start gap-2 rounded-lg border border-destructive/30 bg-destructive/5 p-3 text-sm text-destructive',
        className,
      )}
    >
      <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
      <p className="min-w-0 [overflow-wrap:anywhere]">
        <span className="font-semibold">{title}:</span> {message}
      </p>
    </div>
  );
}
