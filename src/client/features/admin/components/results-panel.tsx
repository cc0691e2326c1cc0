import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ChevronLeft, ChevronRight, FileUp, LoaderCircle, Pencil } from 'lucide-react';
import {
  AWAY_SCORE_MESSAGE,
  HOME_SCORE_MESSAGE,
  MAX_SCORE,
  REASON_MAX_LENGTH,
  REASON_REQUIRED_MESSAGE,
} from '#common/schemas/results.js';
import { PICK_RESULTS, type PickResult } from '#common/schemas/pick-views.js';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogConfirm,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '#client/components/ui/alert-dialog.tsx';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '#client/components/ui/dialog.tsx';
import { FormField } from '#client/components/ui/form-field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { NativeSelect } from '#client/components/ui/native-select.tsx';
import { errorMessage } from '#client/lib/error-message.ts';
import { useCorrectEvent, type EventCorrection } from '../api/correct-event';
import { usePropLegs, type PropLeg } from '../api/get-prop-legs';
import { RESULTS_PAGE_SIZE, useResultsEvents, type UnsettledEvent } from '../api/get-results-events';
import { useSettledEvents, type SettledEvent } from '../api/get-settled-events';
import { useGradeLeg } from '../api/grade-leg';
import { useImportResults, type ImportSummary } from '../api/import-results';
import { resultText, useSettleEvent, type EventResult } from '../api/settle-event';
import { LocalDate, TableEmpty, TableError, TableLoading } from './admin-table';
import { PanelHeader } from './panel-header';

const RESULT_LABEL: Record<PickResult, string> = { win: 'Win', loss: 'Loss', push: 'Push', void: 'Void' };
const STATUS_LABEL: Record<string, string> = {
  final: 'Final',
  postponed: 'Postponed',
  cancelled: 'Cancelled',
  scheduled: 'Scheduled',
};

/** A score as typed: a whole number from 0 to MAX_SCORE, else null. */
function parseScore(raw: string): number | null {
  const value = raw.trim();
  if (!/^\d{1,3}$/.test(value)) return null;
  const score = Number(value);
  return score <= MAX_SCORE ? score : null;
}

const gameName = (event: { home: string; away: string }) => `${event.away} at ${event.home}`;

/** The two score inputs, away first as scores are read ('Celtics 99, at Lakers 101'). */
function ScoreFields({
  event,
  home,
  away,
  onHome,
  onAway,
  errors,
}: {
  event: { home: string; away: string };
  home: string;
  away: string;
  onHome: (value: string) => void;
  onAway: (value: string) => void;
  errors: { home?: string; away?: string };
}) {
  const score = (value: string, onChange: (value: string) => void) => (
    <Input
      inputMode="numeric"
      pattern="[0-9]*"
      autoComplete="off"
      maxLength={3}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
  return (
    <div className="grid grid-cols-2 gap-3">
      <FormField label={`${event.away} (away)`} error={errors.away}>
        {score(away, onAway)}
      </FormField>
      <FormField label={`${event.home} (home)`} error={errors.home}>
        {score(home, onHome)}
      </FormField>
    </div>
  );
}

// 'Graded by the scoreboard': the admin's Results tab. Events past their start get their final
// score (or postponed / cancelled) here, once; props are graded by hand with a reason; a settled event is
// corrected with a reason; a results file can be imported instead of typing scores.
export function ResultsPanel() {
  return (
    <section aria-labelledby="admin-results-title" className="grid gap-8">
      <PanelHeader
        id="admin-results-title"
        title="Results"
        description="A final score grades every pick on its event at once, by rule; postponed or cancelled voids its legs. Props are graded by hand. A result is given once: after that, only a correction with a reason changes it."
      />
      <ImportResults />
      <EventsToSettle />
      <PropsToGrade />
      <RecentlySettled />
    </section>
  );
}

function SubSection({
  id,
  title,
  count,
  children,
}: {
  id: string;
  title: string;
  count?: number;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="grid gap-3">
      <h3 id={id} className="text-lg font-semibold tracking-tight">
        {title}
        {count !== undefined && (
          <span className="ml-2 text-sm font-normal text-muted-foreground tabular-nums">({count})</span>
        )}
      </h3>
      {children}
    </section>
  );
}

function EventHeading({
  event,
}: {
  event: { league: string; home: string; away: string; startsAt: string };
}) {
  return (
    <div className="grid gap-0.5">
      <p className="font-semibold [overflow-wrap:anywhere]">{gameName(event)}</p>
      <p className="text-xs text-muted-foreground">
        {event.league} · <LocalDate iso={event.startsAt} />
      </p>
    </div>
  );
}

function ImportResults() {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const importing = useImportResults();
  const [summary, setSummary] = useState<ImportSummary | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const onFile = (file: File | undefined) => {
    if (!file) return;
    setSummary(null);
    setProblem(null);
    importing.mutate(file, {
      onSuccess: setSummary,
      onError: (error) => setProblem(errorMessage(error)),
      // The same file can be chosen again (a second import is harmless and shows the counts again).
      onSettled: () => {
        if (inputRef.current) inputRef.current.value = '';
      },
    });
  };

  return (
    <div className="grid gap-3 rounded-xl border bg-card p-4">
      <div className="flex flex-wrap items-center gap-3">
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept=".json,application/json"
          className="sr-only"
          onChange={(event) => onFile(event.currentTarget.files?.[0])}
          disabled={importing.isPending}
        />
        <Button
          variant="outline"
          onClick={() => inputRef.current?.click()}
          disabled={importing.isPending}
          aria-busy={importing.isPending}
          aria-describedby={`${inputId}-hint`}
        >
          {importing.isPending ? (
            <LoaderCircle aria-hidden className="animate-spin" />
          ) : (
            <FileUp aria-hidden />
          )}
          Import results file
        </Button>
        <p id={`${inputId}-hint`} className="text-sm text-muted-foreground">
          A JSON results feed document. Events already settled alike are skipped; different results are
          counted as conflicts and left for a correction.
        </p>
      </div>
      <div aria-live="polite" className="text-sm empty:hidden">
        {summary && (
          <p>
            Imported: <strong>{summary.settled}</strong> settled, <strong>{summary.alreadySettled}</strong>{' '}
            already settled, <strong>{summary.unknown}</strong> unknown, <strong>{summary.conflicts}</strong>{' '}
            conflicts.
          </p>
        )}
        {problem && <p className="font-medium text-destructive">{problem}</p>}
      </div>
    </div>
  );
}

function Pager({
  page,
  pages,
  onPage,
  busy,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  busy: boolean;
}) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Events to settle, pages" className="flex items-center justify-end gap-2">
      <Button variant="outline" size="sm" disabled={page === 0 || busy} onClick={() => onPage(page - 1)}>
        <ChevronLeft aria-hidden />
        Previous
      </Button>
      <span className="text-sm text-muted-foreground tabular-nums">
        Page {page + 1} of {pages}
      </span>
      <Button
        variant="outline"
        size="sm"
        disabled={page + 1 >= pages || busy}
        onClick={() => onPage(page + 1)}
      >
        Next
        <ChevronRight aria-hidden />
      </Button>
    </nav>
  );
}

function EventsToSettle() {
  const [page, setPage] = useState(0);
  const { data, isPending, isError, error, refetch, isFetching, isPlaceholderData } = useResultsEvents(page);
  const pages = data ? Math.max(1, Math.ceil(data.total / RESULTS_PAGE_SIZE)) : 1;
  // A page emptied by settling its last events: back to the one before.
  if (data && data.events.length === 0 && page > 0 && !isPlaceholderData) setPage(page - 1);

  return (
    <SubSection id="results-events-title" title="Events to settle" count={data?.total}>
      {isPending ? (
        <TableLoading label="Loading events to settle" />
      ) : isError ? (
        <TableError
          prefix="Failed to load events to settle"
          error={error}
          onRetry={() => void refetch()}
          retrying={isFetching}
        />
      ) : data.events.length === 0 ? (
        <TableEmpty>No event is waiting for its result</TableEmpty>
      ) : (
        <>
          <ul aria-busy={isPlaceholderData} className="grid gap-3 lg:grid-cols-2">
            {data.events.map((event) => (
              <li key={event.id}>
                <SettleEventCard event={event} />
              </li>
            ))}
          </ul>
          <Pager page={page} pages={pages} onPage={setPage} busy={isPlaceholderData} />
        </>
      )}
    </SubSection>
  );
}

function SettleEventCard({ event }: { event: UnsettledEvent }) {
  const settle = useSettleEvent();
  const [homeScore, setHomeScore] = useState('');
  const [awayScore, setAwayScore] = useState('');
  const [errors, setErrors] = useState<{ home?: string; away?: string }>({});
  const [confirming, setConfirming] = useState<EventResult | null>(null);
  const what = gameName(event);

  const submitScore = (formEvent: FormEvent) => {
    formEvent.preventDefault();
    const home = parseScore(homeScore);
    const away = parseScore(awayScore);
    const next = {
      home: home === null ? HOME_SCORE_MESSAGE : undefined,
      away: away === null ? AWAY_SCORE_MESSAGE : undefined,
    };
    setErrors(next);
    if (home !== null && away !== null) setConfirming({ status: 'final', homeScore: home, awayScore: away });
  };

  return (
    <article aria-label={what} className="grid gap-3 rounded-xl border bg-card p-4">
      <div className="flex items-start justify-between gap-3">
        <EventHeading event={event} />
        <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
          {event.legCount} leg{event.legCount === 1 ? '' : 's'}
        </span>
      </div>
      <form noValidate onSubmit={submitScore} className="grid gap-3">
        <ScoreFields
          event={event}
          home={homeScore}
          away={awayScore}
          onHome={setHomeScore}
          onAway={setAwayScore}
          errors={errors}
        />
        <div className="flex flex-wrap gap-2">
          <Button
            type="submit"
            size="sm"
            disabled={settle.isPending}
            aria-label={`Save the final score: ${what}`}
          >
            Save final score
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={settle.isPending}
            aria-label={`Postponed: ${what}`}
            onClick={() => setConfirming({ status: 'postponed' })}
          >
            Postponed
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={settle.isPending}
            aria-label={`Cancelled: ${what}`}
            onClick={() => setConfirming({ status: 'cancelled' })}
          >
            Cancelled
          </Button>
        </div>
      </form>
      <AlertDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open && !settle.isPending) setConfirming(null);
        }}
      >
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Settle {what}?</AlertDialogTitle>
            <AlertDialogDescription>
              {confirming &&
                (confirming.status === 'final'
                  ? `Final score: ${resultText(confirming, event)}. `
                  : `The game was ${confirming.status}: its legs are void. `)}
              {`This grades ${event.legCount} leg${event.legCount === 1 ? '' : 's'} for every capper at once; afterwards only a correction with a reason changes it.`}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={settle.isPending}>Cancel</AlertDialogCancel>
            <AlertDialogConfirm
              className="bg-primary text-primary-foreground hover:bg-primary-hover"
              disabled={settle.isPending}
              aria-busy={settle.isPending}
              onClick={() => {
                if (confirming)
                  settle.mutate({ event, result: confirming }, { onSettled: () => setConfirming(null) });
              }}
            >
              {settle.isPending ? (
                <>
                  <LoaderCircle aria-hidden className="animate-spin" />
                  Saving...
                </>
              ) : (
                'Settle'
              )}
            </AlertDialogConfirm>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </article>
  );
}

function PropsToGrade() {
  const { data, isPending, isError, error, refetch, isFetching } = usePropLegs();
  return (
    <SubSection id="results-props-title" title="Props to grade" count={data?.total}>
      {isPending ? (
        <TableLoading label="Loading props to grade" />
      ) : isError ? (
        <TableError
          prefix="Failed to load props to grade"
          error={error}
          onRetry={() => void refetch()}
          retrying={isFetching}
        />
      ) : data.legs.length === 0 ? (
        <TableEmpty>No prop is waiting for a grade</TableEmpty>
      ) : (
        <>
          <ul className="grid gap-3 lg:grid-cols-2">
            {data.legs.map((leg) => (
              <li key={leg.legId}>
                <GradePropCard leg={leg} />
              </li>
            ))}
          </ul>
          {data.total > data.legs.length && (
            <p className="text-sm text-muted-foreground">
              Showing the {data.legs.length} oldest of {data.total}; more appear as these are graded.
            </p>
          )}
        </>
      )}
    </SubSection>
  );
}

function GradePropCard({ leg }: { leg: PropLeg }) {
  const grade = useGradeLeg();
  const [result, setResult] = useState<PickResult | ''>('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ result?: string; reason?: string }>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      result: result === '' ? 'Please choose win, loss, push or void' : undefined,
      reason: reason.trim() === '' ? REASON_REQUIRED_MESSAGE : undefined,
    };
    setErrors(next);
    if (result === '' || next.reason) return;
    grade.mutate(
      { leg, grade: { result, reason: reason.trim() } },
      { onError: (error) => setErrors({ reason: errorMessage(error) }) },
    );
  };

  return (
    <article aria-label={`${leg.capper}: ${leg.side}`} className="grid gap-3 rounded-xl border bg-card p-4">
      <div className="grid gap-1">
        <p className="font-semibold [overflow-wrap:anywhere]">“{leg.side}”</p>
        <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">
          {leg.capper} · {leg.title} · {leg.odds > 0 ? `+${leg.odds}` : leg.odds} · {leg.units}u
        </p>
        <p className="text-xs text-muted-foreground">
          {gameName(leg)} · {leg.league} · <LocalDate iso={leg.startsAt} /> · {STATUS_LABEL[leg.eventStatus]}
        </p>
      </div>
      <form noValidate onSubmit={submit} className="grid gap-3 sm:grid-cols-[8rem_1fr]">
        <FormField label="Result" error={errors.result}>
          <NativeSelect value={result} onChange={(e) => setResult(e.currentTarget.value as PickResult | '')}>
            <option value="">Choose…</option>
            {PICK_RESULTS.map((value) => (
              <option key={value} value={value}>
                {RESULT_LABEL[value]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField label="Reason" error={errors.reason}>
          <Input
            value={reason}
            maxLength={REASON_MAX_LENGTH}
            placeholder="e.g. He scored 31 (box score)"
            onChange={(e) => setReason(e.currentTarget.value)}
          />
        </FormField>
        <div className="sm:col-span-2">
          <Button type="submit" size="sm" disabled={grade.isPending} aria-busy={grade.isPending}>
            {grade.isPending && <LoaderCircle aria-hidden className="animate-spin" />}
            Grade leg
          </Button>
        </div>
      </form>
    </article>
  );
}

function RecentlySettled() {
  const { data, isPending, isError, error, refetch, isFetching } = useSettledEvents();
  const [correcting, setCorrecting] = useState<SettledEvent | null>(null);
  const openerRef = useRef<HTMLElement | null>(null);

  return (
    <SubSection id="results-settled-title" title="Recently settled" count={data?.total}>
      {isPending ? (
        <TableLoading label="Loading settled events" />
      ) : isError ? (
        <TableError
          prefix="Failed to load settled events"
          error={error}
          onRetry={() => void refetch()}
          retrying={isFetching}
        />
      ) : data.events.length === 0 ? (
        <TableEmpty>No event has a result yet</TableEmpty>
      ) : (
        <ul className="grid gap-2">
          {data.events.map((event) => (
            <li
              key={event.id}
              className="flex flex-wrap items-center justify-between gap-3 rounded-xl border bg-card p-3"
            >
              <EventHeading event={event} />
              <div className="flex items-center gap-3">
                <span className="text-sm tabular-nums">
                  {event.status === 'final'
                    ? `${event.awayScore}–${event.homeScore}`
                    : STATUS_LABEL[event.status]}
                  <span className="ml-2 text-xs text-muted-foreground">{event.source ?? ''}</span>
                </span>
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`Correct: ${gameName(event)}`}
                  onClick={(e) => {
                    openerRef.current = e.currentTarget;
                    setCorrecting(event);
                  }}
                >
                  <Pencil aria-hidden />
                  Correct
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <CorrectDialog
        event={correcting}
        onClose={() => setCorrecting(null)}
        onCloseAutoFocus={(e) => {
          e.preventDefault();
          if (openerRef.current?.isConnected) openerRef.current.focus();
        }}
      />
    </SubSection>
  );
}

function CorrectDialog({
  event,
  onClose,
  onCloseAutoFocus,
}: {
  event: SettledEvent | null;
  onClose: () => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const correct = useCorrectEvent();
  return (
    <Dialog
      open={event !== null}
      onOpenChange={(open) => {
        if (!open && !correct.isPending) onClose();
      }}
    >
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Correct the result</DialogTitle>
          <DialogDescription>
            {event
              ? `${gameName(event)}. Every leg on it is regraded, and the change is logged with your reason.`
              : null}
          </DialogDescription>
        </DialogHeader>
        {event && (
          <CorrectForm
            key={event.id}
            event={event}
            pending={correct.isPending}
            onCancel={onClose}
            onSubmit={(correction, onFailure) =>
              correct.mutate(
                { event, correction },
                { onSuccess: onClose, onError: (error) => onFailure(errorMessage(error)) },
              )
            }
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function CorrectForm({
  event,
  pending,
  onCancel,
  onSubmit,
}: {
  event: SettledEvent;
  pending: boolean;
  onCancel: () => void;
  onSubmit: (correction: EventCorrection, onFailure: (message: string) => void) => void;
}) {
  const [status, setStatus] = useState<EventCorrection['status']>(
    event.status === 'scheduled' ? 'final' : event.status,
  );
  const [homeScore, setHomeScore] = useState(event.homeScore?.toString() ?? '');
  const [awayScore, setAwayScore] = useState(event.awayScore?.toString() ?? '');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ home?: string; away?: string; reason?: string; form?: string }>({});

  const submit = (formEvent: FormEvent) => {
    formEvent.preventDefault();
    const home = parseScore(homeScore);
    const away = parseScore(awayScore);
    const final = status === 'final';
    const next = {
      home: final && home === null ? HOME_SCORE_MESSAGE : undefined,
      away: final && away === null ? AWAY_SCORE_MESSAGE : undefined,
      reason: reason.trim() === '' ? REASON_REQUIRED_MESSAGE : undefined,
    };
    setErrors(next);
    if (next.home || next.away || next.reason) return;
    const trimmed = reason.trim();
    onSubmit(
      final
        ? { status: 'final', homeScore: home!, awayScore: away!, reason: trimmed }
        : { status, reason: trimmed },
      (message) => setErrors({ form: message }),
    );
  };

  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <FormField label="Result">
        <NativeSelect
          value={status}
          onChange={(e) => setStatus(e.currentTarget.value as EventCorrection['status'])}
        >
          <option value="final">Final score</option>
          <option value="postponed">Postponed</option>
          <option value="cancelled">Cancelled</option>
        </NativeSelect>
      </FormField>
      {status === 'final' && (
        <ScoreFields
          event={event}
          home={homeScore}
          away={awayScore}
          onHome={setHomeScore}
          onAway={setAwayScore}
          errors={errors}
        />
      )}
      <FormField label="Reason" error={errors.reason}>
        <Input
          value={reason}
          maxLength={REASON_MAX_LENGTH}
          placeholder="e.g. Official box score corrected"
          onChange={(e) => setReason(e.currentTarget.value)}
        />
      </FormField>
      {/* A modal hides the toasts from screen readers: the server's reason is written here too. */}
      {errors.form && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {errors.form}
        </p>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending} aria-busy={pending}>
          {pending && <LoaderCircle aria-hidden className="animate-spin" />}
          Save correction
        </Button>
      </DialogFooter>
    </form>
  );
}
