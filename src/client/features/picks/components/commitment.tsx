import { useEffect, useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { cn } from '#client/lib/cn.ts';

/** A commitment in full: 64 hex characters in monospace that wrap on a phone, with a copy button. */
export function Commitment({
  value,
  label,
  className,
}: {
  value: string;
  label: string;
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
        data-testid="commitment"
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
