import { useEffect, type ReactNode } from 'react';
import { Lock, PenLine, ShieldAlert } from 'lucide-react';
import { resultText } from '#common/pick-result-text.js';
import type { Correction, LegState, PickView } from '#common/schemas/pick-views.js';
import type { Video } from '#common/schemas/videos.js';
import { Button } from '#client/components/ui/button.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { errorMessage, errorStatus } from '#client/lib/error-message.ts';
import { usePick } from '../api/get-pick';
import { usePickLegs } from '../api/get-pick-legs';
import { usePickReveal } from '../api/get-pick-reveal';
import { Commitment } from './commitment';
import { formatPickTime } from './pick-format';
import { PickLegsList } from './pick-legs-list';
import { VerifyButton } from './verify-button';

export const UNVERIFIED_PICK_TEXT = 'Unverified pick: not sealed, not counted in any record.';
export const SELF_REPORTED_PICK_TEXT = 'Self-reported: not counted in the verified record.';

const STATUS_TEXT: Record<PickView['status'], { label: string; detail: string }> = {
  open: { label: 'Open', detail: 'No leg has started yet.' },
  started: { label: 'Started', detail: 'Locked: the legs and selections can no longer change.' },
  graded: { label: 'Graded', detail: 'Every leg is settled: the whole pick is revealed below.' },
};

type PanelProps = {
  videoId: number;
  /** The video's pick summary (null: an unverified pick, nothing sealed). */
  summary: Video['pick'];
  /** The owner, a buyer or an admin: they may see the current legs before the reveal. */
  canSeeLegs: boolean;
};

/**
 * The video page's "Sealed pick": what everyone may check before buying (the commitment and time
 * of every version, the status), and once graded the result, the revealed pick and a Verify button.
 */
export function PickSealPanel({ videoId, summary, canSeeLegs }: PanelProps) {
  if (!summary) return <UnverifiedPanel />;
  return <SealedPanel videoId={videoId} summary={summary} canSeeLegs={canSeeLegs} />;
}

function PanelFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby="sealed-pick-title"
      className="grid min-w-0 gap-4 rounded-card border bg-card p-4 shadow-sm sm:p-5"
      data-testid="pick-seal-panel"
    >
      <h2 id="sealed-pick-title" className="flex scroll-mt-36 items-center gap-2 text-lg font-semibold">
        {title === 'Sealed pick' ? (
          <Lock aria-hidden className="size-4 text-primary" />
        ) : (
          <ShieldAlert aria-hidden className="size-4 text-muted-foreground" />
        )}
        {title}
      </h2>
      {children}
    </section>
  );
}

function UnverifiedPanel() {
  return (
    <PanelFrame title="Unverified pick">
      <p className="text-sm text-muted-foreground">{UNVERIFIED_PICK_TEXT}</p>
    </PanelFrame>
  );
}

function SealedPanel({
  videoId,
  summary,
  canSeeLegs,
}: {
  videoId: number;
  summary: NonNullable<Video['pick']>;
  canSeeLegs: boolean;
}) {
  const { data: pick, isPending, isError, error, refetch } = usePick(videoId);
  // Queries never go stale (spec 7): when the video, fetched again, carries a new version or status (an
  // edit, the first leg's start, a grading), the pick is fetched again too.
  const outdated =
    pick !== undefined && (pick.commitment !== summary.commitment || pick.status !== summary.status);
  useEffect(() => {
    if (outdated) void refetch();
  }, [outdated, refetch]);

  // The summary said sealed, but the pick is gone (deleted untouched since): it is not on any record.
  if (errorStatus(error) === 404) return <UnverifiedPanel />;
  if (isPending) {
    return (
      <PanelFrame title="Sealed pick">
        <div className="grid gap-3" role="status">
          <span className="sr-only">Loading the sealed pick</span>
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-4 w-56" />
        </div>
      </PanelFrame>
    );
  }
  if (isError) {
    return (
      <PanelFrame title="Sealed pick">
        <div className="grid justify-items-start gap-2">
          <p className="text-sm text-destructive">Could not load the sealed pick: {errorMessage(error)}</p>
          <Button variant="outline" size="sm" onClick={() => void refetch()}>
            Try again
          </Button>
        </div>
      </PanelFrame>
    );
  }
  return <SealedPickDetails pick={pick} canSeeLegs={canSeeLegs} />;
}

function SealedPickDetails({ pick, canSeeLegs }: { pick: PickView; canSeeLegs: boolean }) {
  const moderated = pick.removed === 'moderation';
  const graded = pick.status === 'graded' && !moderated;
  const status = STATUS_TEXT[pick.status];
  const legs = `${pick.legCount} ${pick.legCount === 1 ? 'leg' : 'legs'}`;

  return (
    <PanelFrame title="Sealed pick">
      {pick.removed === 'capper' && (
        <p className="rounded-lg border border-accent/60 bg-accent/10 p-3 text-sm font-medium">
          Removed from sale by the capper — still on the record.
        </p>
      )}
      {moderated && (
        <p className="rounded-lg border border-destructive/40 bg-destructive/5 p-3 text-sm font-medium text-destructive">
          Removed by moderation.
        </p>
      )}

      {pick.selfReported && (
        <div
          className="grid gap-1 rounded-lg border border-amber-500/40 bg-amber-50 p-3 text-sm text-amber-950"
          data-testid="pick-self-reported"
        >
          <p className="flex items-center gap-2 font-semibold">
            <PenLine aria-hidden className="size-4 shrink-0" />
            {SELF_REPORTED_PICK_TEXT}
          </p>
          <p>
            At least one leg is not on a market game at a market price (a prop, a league the market does not
            follow, or a pick posted before the market): it is sealed and graded all the same, but kept apart
            from the capper&apos;s record.
          </p>
        </div>
      )}

      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
        <Fact term="Status">
          <span data-testid="pick-status">{status.label}</span>
        </Fact>
        <Fact term="Legs">
          {legs} · {pick.parlay ? 'parlay' : 'straight'}
        </Fact>
        <Fact term="Posted">
          <time dateTime={pick.postedAt}>{formatPickTime(pick.postedAt)}</time>
        </Fact>
        {pick.result && (
          <Fact term="Result">
            <span data-testid="pick-result">{resultText(pick.result, pick.unitsWon)}</span>
          </Fact>
        )}
      </dl>
      <p className="-mt-2 text-xs text-muted-foreground">{status.detail}</p>

      <div className="grid gap-1.5">
        <h3 className="text-sm font-semibold">Commitment</h3>
        <Commitment value={pick.commitment} label="the commitment" />
        <p className="text-xs text-muted-foreground">
          The SHA-256 of the whole pick (legs, selections and a secret salt), published when it was posted:
          the pick cannot be changed afterwards without changing this value.
        </p>
      </div>

      {graded ? (
        <RevealedPick videoId={pick.videoId} commitment={pick.commitment} />
      ) : (
        canSeeLegs && !moderated && <CurrentLegs videoId={pick.videoId} />
      )}

      {graded && pick.corrections.length > 0 && <Corrections corrections={pick.corrections} />}

      <Versions pick={pick} />
    </PanelFrame>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{term}</dt>
      <dd className="font-semibold">{children}</dd>
    </div>
  );
}

/** Before the reveal, for the owner, its buyers and admins: the legs as they stand. */
function CurrentLegs({ videoId }: { videoId: number }) {
  const { data, isPending, isError, error, refetch } = usePickLegs(videoId);
  if (isPending) return <Skeleton className="h-20 w-full" />;
  if (isError) {
    // 403: not one of those who may see them after all (a stale purchase flag); nothing to show.
    if (errorStatus(error) === 403) return null;
    return (
      <div className="grid justify-items-start gap-2">
        <p className="text-sm text-destructive">Could not load the legs: {errorMessage(error)}</p>
        <Button variant="outline" size="sm" onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  return (
    <div className="grid gap-4">
      <div className="grid gap-2">
        <h3 className="text-sm font-semibold">Legs (version {data.version}, visible to you)</h3>
        <PickLegsList legs={data.legs} states={statesOf(data)} label="Current legs" />
      </div>
      {data.corrections.length > 0 && <Corrections corrections={data.corrections} />}
    </div>
  );
}

/** The legs' states when they are the legs' own (one per leg, in order); none otherwise. */
function statesOf(
  view: { legs: readonly unknown[]; states: LegState[] } | undefined,
): LegState[] | undefined {
  return view && view.states.length === view.legs.length ? view.states : undefined;
}

/** Corrections of the pick's games or grades (docs/decisions/020): public, with who made them and why. */
function Corrections({ corrections }: { corrections: readonly Correction[] }) {
  return (
    <div className="grid gap-2">
      <h3 className="text-sm font-semibold">Corrections</h3>
      <ol className="grid gap-2" aria-label="Corrections" data-testid="pick-corrections">
        {corrections.map((correction, index) => (
          <li key={index} className="grid gap-1 rounded-lg border border-accent/60 bg-accent/5 p-3 text-sm">
            <p className="font-semibold">{correction.game}</p>
            <p>
              <span className="text-muted-foreground line-through decoration-muted-foreground/60">
                <span className="sr-only">Before: </span>
                {correction.before}
              </span>{' '}
              <span aria-hidden>→</span> <span className="sr-only">After: </span>
              <span className="font-medium">{correction.after}</span>
            </p>
            <p className="text-muted-foreground">Reason: {correction.reason}</p>
            <p className="text-xs text-muted-foreground">
              By {correction.by}, <time dateTime={correction.at}>{formatPickTime(correction.at)}</time>
            </p>
          </li>
        ))}
      </ol>
    </div>
  );
}

/** Once graded: the whole sealed pick from /reveal, each leg's grade, score and close, and the Verify button. */
function RevealedPick({ videoId, commitment }: { videoId: number; commitment: string }) {
  const { data, isPending, isError, error, refetch } = usePickReveal(videoId, { enabled: true });
  if (isPending) return <Skeleton className="h-32 w-full" />;
  if (isError) {
    return (
      <div className="grid justify-items-start gap-2">
        <p className="text-sm text-destructive">Could not load the revealed pick: {errorMessage(error)}</p>
        <Button variant="outline" size="sm" onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const { sealed } = data;
  return (
    <div className="grid gap-4">
      <div className="grid gap-2">
        <h3 className="text-sm font-semibold">Revealed legs</h3>
        <PickLegsList
          legs={sealed.legs}
          states={statesOf({ legs: sealed.legs, states: data.states })}
          label="Revealed legs"
        />
      </div>
      <div className="grid gap-1">
        <h3 className="text-sm font-semibold">Revealed selections</h3>
        <p className="rounded-lg bg-muted/60 p-3 text-sm leading-relaxed whitespace-pre-wrap">
          {sealed.selections.trim() || 'No winning selections were written.'}
        </p>
      </div>
      <VerifyButton sealed={sealed} expected={commitment} />
    </div>
  );
}

/** Every version sealed, oldest first: the earlier ones stay listed, marked superseded. */
function Versions({ pick }: { pick: PickView }) {
  const versions = [...pick.versions].sort((a, b) => a.version - b.version);
  const latest = versions.at(-1)?.version;
  return (
    <div className="grid gap-2">
      <h3 className="text-sm font-semibold">Versions</h3>
      <ol className="grid gap-2" aria-label="Versions" data-testid="pick-versions">
        {versions.map((version) => {
          const superseded = version.version !== latest;
          return (
            <li key={version.version} className="grid gap-1 rounded-lg border p-3 text-sm">
              <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <span className="font-semibold">v{version.version}</span>
                <time dateTime={version.postedAt} className="text-muted-foreground">
                  {formatPickTime(version.postedAt)}
                </time>
                <span
                  className={
                    superseded
                      ? 'rounded-full bg-muted px-2 py-0.5 text-xs font-medium text-muted-foreground'
                      : 'rounded-full bg-primary/10 px-2 py-0.5 text-xs font-medium text-primary'
                  }
                >
                  {superseded ? 'Superseded' : 'Current'}
                </span>
              </p>
              <code
                className={
                  superseded
                    ? 'font-mono text-xs break-all text-muted-foreground'
                    : 'font-mono text-xs break-all'
                }
              >
                {version.commitment}
              </code>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
