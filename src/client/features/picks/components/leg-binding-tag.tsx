import { BadgeCheck, PenLine } from 'lucide-react';
import { cn } from '#client/lib/cn.ts';

/**
 * docs/decisions/025: a leg on a market game at a market price ('Market price'), or a self-reported one
 * ('Self-reported', never counted in the record). `detail` follows the label, e.g. the price's terms.
 */
export function LegBindingTag({
  market,
  detail,
  className,
}: {
  market: boolean;
  detail?: string;
  className?: string;
}) {
  return (
    <span
      className={cn(
        'inline-flex w-fit items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium',
        market ? 'bg-emerald-50 text-emerald-900' : 'bg-amber-100 text-amber-900',
        className,
      )}
      title={market ? undefined : 'Self-reported: never counted in the verified record'}
      data-testid="leg-binding-tag"
    >
      {market ? (
        <BadgeCheck aria-hidden className="size-3 shrink-0" />
      ) : (
        <PenLine aria-hidden className="size-3 shrink-0" />
      )}
      {market ? 'Market price' : 'Self-reported'}
      {detail && <span className="font-normal">· {detail}</span>}
    </span>
  );
}
