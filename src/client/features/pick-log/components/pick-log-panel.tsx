import { useRef, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { CircleDashed, Clock, LoaderCircle, ScrollText, ShieldCheck, ShieldX } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { cn } from '#client/lib/cn.ts';
import { errorMessage } from '#client/lib/error-message.ts';
import { usePick, type PickView } from '#client/features/picks/index.ts';
import {
  verifyPickLog,
  type EntryCheck,
  type PickLogVerification,
  type VerifyProgress,
} from '../lib/verify-pick-log';
import { entryLabel, formatLogTime } from '../lib/log-format';

/**
 * On the video page below the Sealed pick: where this pick stands in the public log, and a Verify
 * that checks each entry against the log's signed checkpoint in this browser.
 */
export function PickLogPanel({ videoId }: { videoId: number }) {
  // The same query as the Sealed pick panel, which also fetches it again when the video moves on.
  const { data: pick, isPending, isError } = usePick(videoId);
  // An unverified pick has no log entries; a failed load is already told by the Sealed pick panel.
  if (isError) return null;
  if (isPending) {
    return (
      <PanelFrame>
        <div className="grid gap-2" role="status">
          <span className="sr-only">Loading the log entries</span>
          <Skeleton className="h-4 w-64 max-w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      </PanelFrame>
    );
  }
  // A new entry (a revision, the grade) starts the check over: the old outcome no longer covers the list.
  const entriesKey = `${pick.status}:${pick.log.map((ref) => ref.index).join(',')}`;
  return <PickLogDetails key={entriesKey} pick={pick} />;
}

function PanelFrame({ children }: { children: ReactNode }) {
  return (
    <section
      aria-labelledby="pick-log-title"
      className="grid min-w-0 gap-4 rounded-card border bg-card p-4 shadow-sm sm:p-5"
      data-testid="pick-log-panel"
    >
      <h2 id="pick-log-title" className="flex items-center gap-2 text-lg font-semibold">
        <ScrollText aria-hidden className="size-4 text-primary" />
        Public pick log
      </h2>
      {children}
    </section>
  );
}

type State =
  | { step: 'idle' }
  | { step: 'checking'; progress: VerifyProgress | null }
  | { step: 'done'; result: PickLogVerification }
  | { step: 'failed'; message: string };

function PickLogDetails({ pick }: { pick: PickView }) {
  const [state, setState] = useState<State>({ step: 'idle' });
  const running = useRef(false);
  // Oldest first by the time each entry records, log position among equal times.
  const refs = [...pick.log].sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || a.index - b.index);
  const checks = new Map<number, EntryCheck>(
    state.step === 'done' ? state.result.entries.map((check) => [check.index, check]) : [],
  );

  const verify = async () => {
    if (running.current) return;
    running.current = true;
    setState({ step: 'checking', progress: null });
    try {
      const result = await verifyPickLog(pick, {
        onProgress: (progress) => setState({ step: 'checking', progress }),
      });
      setState({ step: 'done', result });
    } catch (error) {
      setState({ step: 'failed', message: errorMessage(error) });
    } finally {
      running.current = false;
    }
  };

  return (
    <PanelFrame>
      <p className="text-sm text-muted-foreground">
        Posting, revising, grading and removing a pick each add an entry to a public, append-only log that
        anyone can check, and so do the final scores and closing prices of its games,{' '}
        <Link href="/log" className="font-medium text-primary underline-offset-4 hover:underline">
          even without trusting us
        </Link>
        .
      </p>

      {refs.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="pick-log-empty">
          This pick has no entries in the public log.
        </p>
      ) : (
        <>
          <p className="-mb-2 text-xs text-muted-foreground" data-testid="pick-log-order">
            Oldest first; #number is the entry&apos;s place in the log.
          </p>
          <ol className="grid gap-2" aria-label="Log entries, oldest first" data-testid="pick-log-entries">
            {refs.map((ref) => {
              const check = checks.get(ref.index);
              return (
                <li
                  key={ref.index}
                  className="grid gap-1 rounded-lg border p-3 text-sm"
                  data-testid="pick-log-entry"
                >
                  <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <span className="font-mono font-semibold tabular-nums">{entryLabel(ref.index)}</span>
                    <span className="min-w-0 font-semibold break-words" data-testid="pick-log-entry-title">
                      {ref.title}
                    </span>
                    <time dateTime={ref.at} className="text-muted-foreground">
                      {formatLogTime(ref.at)}
                    </time>
                    {check && <CheckBadge check={check} />}
                  </p>
                  {check && check.status !== 'verified' && (
                    <p
                      className={cn(
                        'text-xs',
                        check.status === 'failed' ? 'text-destructive' : 'text-muted-foreground',
                      )}
                    >
                      {check.message}
                    </p>
                  )}
                </li>
              );
            })}
          </ol>

          <div className="grid gap-2">
            <div>
              <Button type="button" onClick={() => void verify()} disabled={state.step === 'checking'}>
                {state.step === 'checking' ? (
                  <LoaderCircle aria-hidden className="animate-spin" />
                ) : (
                  <ShieldCheck aria-hidden />
                )}
                Verify log
              </Button>
            </div>
            <p className="text-xs text-muted-foreground">
              Verify fetches the log&apos;s signed checkpoint and checks its signature, then checks with
              Merkle proofs, in your browser, that each entry above is in the log and says what this page says
              {pick.status === 'graded'
                ? ', recomputes the commitment from the revealed pick, and regrades it from the logged scores'
                : ''}
              .
            </p>
            {state.step === 'checking' && <VerifyProgressBar progress={state.progress} />}
            <div aria-live="polite" data-testid="pick-log-result">
              {state.step === 'done' && <VerifyOutcome result={state.result} />}
              {state.step === 'failed' && (
                <p className="text-sm font-semibold text-destructive">Could not verify: {state.message}</p>
              )}
            </div>
          </div>
        </>
      )}
    </PanelFrame>
  );
}

const BADGES: Record<EntryCheck['status'], { text: string; icon: ReactNode; className: string }> = {
  verified: {
    text: 'Verified',
    icon: <ShieldCheck aria-hidden className="size-3.5" />,
    className: 'bg-primary/10 text-primary',
  },
  failed: {
    text: 'Failed',
    icon: <ShieldX aria-hidden className="size-3.5" />,
    className: 'bg-destructive/10 text-destructive',
  },
  unsigned: {
    text: 'Not yet signed',
    icon: <Clock aria-hidden className="size-3.5" />,
    className: 'bg-muted text-muted-foreground',
  },
  unchecked: {
    text: 'Not checked',
    icon: <CircleDashed aria-hidden className="size-3.5" />,
    className: 'bg-muted text-muted-foreground',
  },
};

function CheckBadge({ check }: { check: EntryCheck }) {
  const badge = BADGES[check.status];
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold sm:ml-auto',
        badge.className,
      )}
      data-testid="entry-check"
      title={check.message}
    >
      {badge.icon}
      {check.status === 'verified' ? '✓ ' : check.status === 'failed' ? '✗ ' : ''}
      {badge.text}
    </span>
  );
}

function VerifyProgressBar({ progress }: { progress: VerifyProgress | null }) {
  const percent = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
  const label = progress?.step ?? 'Starting';
  return (
    <div className="grid gap-1.5" data-testid="pick-log-progress">
      <div className="flex items-center justify-between gap-3 text-xs">
        <span className="min-w-0 truncate text-muted-foreground">{label}…</span>
        <span className="text-muted-foreground tabular-nums">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label="Verifying the log"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={label}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full bg-primary transition-[width] duration-300" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}

const OUTCOME: Record<PickLogVerification['status'], { title: string; box: string; text: string }> = {
  verified: {
    title: 'Verified',
    box: 'border-primary/40 bg-primary/5',
    text: 'text-primary',
  },
  failed: {
    title: 'Verification failed',
    box: 'border-destructive/40 bg-destructive/5',
    text: 'text-destructive',
  },
  unsigned: {
    title: 'Not yet signed',
    box: 'border-accent/60 bg-accent/10',
    text: 'text-foreground',
  },
};

function VerifyOutcome({ result }: { result: PickLogVerification }) {
  const outcome = OUTCOME[result.status];
  const { checkpoint, reveal, grade } = result;
  return (
    <div
      className={cn('grid gap-2 rounded-lg border p-3 text-sm', outcome.box)}
      data-testid="pick-log-outcome"
    >
      <p className={cn('flex items-center gap-2 font-semibold', outcome.text)}>
        {result.status === 'verified' ? (
          <ShieldCheck aria-hidden className="size-4 shrink-0" />
        ) : result.status === 'failed' ? (
          <ShieldX aria-hidden className="size-4 shrink-0" />
        ) : (
          <Clock aria-hidden className="size-4 shrink-0" />
        )}
        {outcome.title}
      </p>
      <p data-testid="pick-log-summary">{result.summary}</p>
      {reveal && (
        <p className="grid gap-0.5 text-xs" data-testid="pick-log-reveal">
          <span className={reveal.status === 'matched' ? 'text-primary' : 'text-destructive'}>
            {reveal.status === 'matched' ? '✓ ' : '✗ '}
            {reveal.message}
          </span>
          {reveal.computed && (
            <code className="font-mono break-all text-muted-foreground">{reveal.computed}</code>
          )}
        </p>
      )}
      {grade && (
        <p
          className={cn(
            'text-xs',
            grade.status === 'matched'
              ? 'text-primary'
              : grade.status === 'mismatched'
                ? 'text-destructive'
                : 'text-muted-foreground',
          )}
          data-testid="pick-log-grade"
        >
          {grade.status === 'matched' ? '✓ ' : grade.status === 'mismatched' ? '✗ ' : ''}
          {grade.message}
        </p>
      )}
      {checkpoint && (
        <dl
          className="grid gap-x-4 gap-y-1 text-xs sm:grid-cols-[auto_1fr]"
          data-testid="pick-log-checkpoint"
        >
          <dt className="text-muted-foreground">Checkpoint size</dt>
          <dd className="font-semibold tabular-nums">{checkpoint.size.toLocaleString('en-US')} entries</dd>
          <dt className="text-muted-foreground">Root hash</dt>
          <dd className="font-mono break-all">{checkpoint.rootHash}</dd>
          <dt className="text-muted-foreground">Signed by key</dt>
          <dd className="font-mono break-all">{checkpoint.keyName}</dd>
          <dt className="text-muted-foreground">Key id</dt>
          <dd className="font-mono">{checkpoint.keyId}</dd>
        </dl>
      )}
      {checkpoint && (
        <p className="text-xs text-muted-foreground">
          Compare the key name and id with what others see, or check this capper&apos;s whole record with the
          independent verifier on{' '}
          <Link href="/log" className="text-primary underline-offset-4 hover:underline">
            the log&apos;s page
          </Link>
          .
        </p>
      )}
    </div>
  );
}
