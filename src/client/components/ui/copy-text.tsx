import { useEffect, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { cn } from '#client/lib/cn.ts';

/**
 * A value to compare or paste elsewhere (a commitment, a key, a command): monospace, wrapping on a phone,
 * with Copy. `label` names it for a screen reader ("Copy the commitment").
 */
export function CopyText({
  value,
  label,
  testId,
  className,
}: {
  value: string;
  label: string;
  testId?: string;
  className?: string;
}) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 2500);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      // No clipboard (plain http, or refused): the value is on screen to select by hand.
      setCopied('failed');
    }
  };

  return (
    <div className={cn('flex items-start gap-2', className)}>
      <code
        className="min-w-0 flex-1 rounded-md bg-muted px-2 py-1.5 font-mono text-xs leading-relaxed break-all"
        data-testid={testId}
      >
        {value}
      </code>
      <Button
        type="button"
        variant="outline"
        size="sm"
        onClick={() => void copy()}
        aria-label={`Copy ${label}`}
        className="shrink-0"
      >
        {copied === 'yes' ? <Check aria-hidden /> : <Copy aria-hidden />}
        <span aria-hidden>Copy</span>
      </Button>
      <span role="status" className="sr-only">
        {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Could not copy: select the text instead' : ''}
      </span>
    </div>
  );
}
