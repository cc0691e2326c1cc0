import type { SealedLeg } from '#common/pick-seal.js';
import type { LegState } from '#common/schemas/pick-views.js';
import {
  describeBet,
  formatOdds,
  formatPickTime,
  legStatus,
  outcomeText,
  type LegStatus,
} from '#client/features/picks/index.ts';
import { cn } from '#client/lib/cn.ts';

// A buyer's words for where a leg stands: 'Started' once its game is on.
const STATUS_LABEL: Record<LegStatus, string> = {
  open: 'Open',
  'under way': 'Started',
  win: 'Won',
  loss: 'Lost',
  push: 'Push',
  void: 'Void',
};

const STATUS_CLASSES: Record<LegStatus, string> = {
  open: 'bg-sky-100 text-sky-900',
  'under way': 'bg-amber-100 text-amber-950',
  win: 'bg-emerald-100 text-emerald-900',
  loss: 'bg-red-100 text-red-900',
  push: 'bg-slate-200 text-slate-900',
  void: 'bg-slate-200 text-slate-900',
};

const signedLine = (line: number) => (line > 0 ? `+${line}` : String(line));

/** The bought legs in large type: the bet, its price and line, the game and its start, and its status. */
export function SelectionLegs({
  legs,
  states,
  now = new Date(),
}: {
  legs: readonly SealedLeg[];
  states: readonly LegState[];
  now?: Date;
}) {
  // States belong to the legs only when there is one per leg (a stale answer mid-edit has fewer).
  const own = states.length === legs.length;
  return (
    <ol aria-label="Your selections, leg by leg" className="grid gap-3" data-testid="selection-legs">
      {legs.map((leg, index) => {
        const state = own ? states[index] : undefined;
        const status = state
          ? legStatus(leg, state, now)
          : Date.parse(leg.startsAt) > now.getTime()
            ? 'open'
            : 'under way';
        const final = state ? outcomeText(leg, state) : null;
        return (
          <li
            key={index}
            className="grid min-w-0 gap-2 rounded-xl border bg-background p-4 print:border-black"
            data-testid="selection-leg"
          >
            <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
              <p className="min-w-0 text-xl font-bold break-words sm:text-2xl">{describeBet(leg)}</p>
              <span
                className={cn(
                  'rounded-full px-2.5 py-0.5 text-sm font-bold uppercase print:border print:border-black print:bg-white print:text-black',
                  STATUS_CLASSES[status],
                )}
                data-testid="selection-leg-status"
              >
                <span className="sr-only">Status: </span>
                {STATUS_LABEL[status]}
              </span>
            </div>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-base">
              <dt className="text-muted-foreground print:text-black">Game</dt>
              <dd className="min-w-0 font-medium break-words">
                {leg.away} at {leg.home}{' '}
                <span className="text-muted-foreground print:text-black">· {leg.league}</span>
              </dd>
              <dt className="text-muted-foreground print:text-black">Starts</dt>
              <dd>
                <time dateTime={leg.startsAt}>{formatPickTime(leg.startsAt)}</time>
              </dd>
              <dt className="text-muted-foreground print:text-black">Price</dt>
              <dd className="font-mono tabular-nums">
                {formatOdds(leg.odds)}
                {leg.line !== null && (
                  <span className="font-sans">
                    {' '}
                    · line {leg.market === 'total' ? leg.line : signedLine(leg.line)}
                  </span>
                )}
                <span className="font-sans text-muted-foreground print:text-black">
                  {' '}
                  · {leg.units} {leg.units === 1 ? 'unit' : 'units'}
                </span>
              </dd>
              {final && (
                <>
                  <dt className="text-muted-foreground print:text-black">Result</dt>
                  <dd className="font-medium" data-testid="selection-leg-final">
                    {final}
                    {state?.result === 'void' && state.voidReason ? ` · ${state.voidReason}` : ''}
                  </dd>
                </>
              )}
            </dl>
          </li>
        );
      })}
    </ol>
  );
}
