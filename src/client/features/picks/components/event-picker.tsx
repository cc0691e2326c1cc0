import { useMemo, useState } from 'react';
import { SELF_REPORTED_MAX_DAYS, TEAM_MAX_LENGTH, type League } from '#common/schemas/picks.js';
import { Button } from '#client/components/ui/button.tsx';
import { FormField } from '#client/components/ui/form-field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { Skeleton } from '#client/components/ui/skeleton.tsx';
import { errorMessage } from '#client/lib/error-message.ts';
import { useEvents, type EventView } from '../api/get-events';
import { formatStart, isoToLocalInput, type LegDraft, type LegFieldErrors } from '../lib/legs';
import { ChoiceGroup, type Choice } from './choice-group';

/** A screenful at a time, soonest first: a search by team narrows the rest, "Show more" pages on. */
const SHOWN_EVENTS = 8;
const NEW_GAME = 'new';

/** '(UTC−04:00)': the zone a typed start time is read in. */
function zoneLabel(): string {
  const offset = -new Date().getTimezoneOffset();
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offset) % 60).padStart(2, '0');
  return `UTC${offset < 0 ? '−' : '+'}${hours}:${minutes}`;
}

/**
 * docs/decisions/020, 025: a leg's game. A market leg's is one of the market's schedule, nothing else
 * (its start is the official one); a self-reported leg's is one the capper posted on before, or one they
 * add, starting within SELF_REPORTED_MAX_DAYS.
 */
export function EventPicker({
  league,
  marketOnly,
  draft,
  errors,
  onChoose,
  onField,
}: {
  league: League;
  /** A market leg: only the market's games, no "Add a game". */
  marketOnly: boolean;
  draft: Pick<LegDraft, 'eventId' | 'home' | 'away' | 'startsLocal'>;
  errors: LegFieldErrors;
  onChoose: (event: EventView | typeof NEW_GAME) => void;
  onField: (field: 'home' | 'away' | 'startsLocal', value: string) => void;
}) {
  const events = useEvents(league);
  const [search, setSearch] = useState('');
  const [limit, setLimit] = useState(SHOWN_EVENTS);
  const term = search.trim().toLowerCase();
  const listed = useMemo(
    () => (events.data ?? []).filter((event) => !marketOnly || event.market),
    [events.data, marketOnly],
  );
  const matching = useMemo(
    () =>
      listed.filter(
        (event) =>
          !term || event.home.toLowerCase().includes(term) || event.away.toLowerCase().includes(term),
      ),
    [listed, term],
  );
  const shown = matching.slice(0, limit);
  // The chosen game stays in the list while the capper searches for something else.
  const chosen = listed.find((event) => event.id === draft.eventId);
  if (chosen && !shown.includes(chosen)) shown.unshift(chosen);

  const choices: Choice[] = [
    ...shown.map((event) => ({
      value: String(event.id),
      label: (
        <span className="grid gap-0.5">
          <span className="font-medium">
            {event.away} @ {event.home}
          </span>
          <span className="text-xs text-muted-foreground">
            <time dateTime={event.startsAt}>{formatStart(event.startsAt)}</time>
          </span>
        </span>
      ),
    })),
    ...(marketOnly ? [] : [{ value: NEW_GAME, label: <span className="font-medium">Add a game</span> }]),
  ];

  const choose = (value: string) => {
    if (value === NEW_GAME) return onChoose(NEW_GAME);
    const event = events.data?.find((candidate) => String(candidate.id) === value);
    if (event) onChoose(event);
  };

  const known = listed.length;
  const status = events.isPending
    ? null
    : events.isError
      ? null
      : known === 0
        ? marketOnly
          ? `The market lists no upcoming ${league} games right now.`
          : `No upcoming ${league} games of yours yet: add one.`
        : term && matching.length === 0
          ? marketOnly
            ? `No ${league} game on the market with “${search.trim()}”: search again.`
            : `No ${league} game with “${search.trim()}”: add it, or search again.`
          : matching.length > limit
            ? `Showing the first ${limit} of ${matching.length} games: search by team to narrow.`
            : null;
  const now = new Date();
  const latestStart = new Date(now.getTime() + SELF_REPORTED_MAX_DAYS * 24 * 3600_000);

  return (
    <div className="grid gap-4">
      {known > 0 && (
        <FormField label="Search games by team">
          <Input
            type="search"
            value={search}
            onChange={(event) => {
              setSearch(event.target.value);
              setLimit(SHOWN_EVENTS);
            }}
            placeholder="e.g. Lakers"
            autoComplete="off"
            enterKeyHint="search"
          />
        </FormField>
      )}
      {events.isPending ? (
        <div className="grid gap-2" role="status">
          <span className="sr-only">Loading the {league} games</span>
          <Skeleton className="h-11" />
          <Skeleton className="h-11" />
        </div>
      ) : events.isError ? (
        <div role="alert" className="grid gap-2 rounded-lg border border-destructive/40 p-3 text-sm">
          <p>
            Could not load the {league} games: {errorMessage(events.error)}
          </p>
          <div>
            <Button variant="outline" size="sm" onClick={() => void events.refetch()}>
              Try again
            </Button>
          </div>
        </div>
      ) : null}
      <div className="grid gap-2">
        <ChoiceGroup
          legend="Game"
          name="leg-event"
          choices={choices}
          value={draft.eventId === null ? '' : String(draft.eventId)}
          onChange={choose}
          error={errors.event}
          columns={1}
        />
        {status && (
          <p className="text-xs text-muted-foreground" aria-live="polite">
            {status}
          </p>
        )}
        {matching.length > limit && (
          <div>
            <Button variant="outline" size="sm" onClick={() => setLimit(limit + SHOWN_EVENTS)}>
              Show more games
            </Button>
          </div>
        )}
      </div>
      {draft.eventId === NEW_GAME && (
        <div className="grid gap-4 rounded-lg border border-dashed p-3 sm:grid-cols-2">
          <FormField label="Home team" error={errors.home}>
            <Input
              value={draft.home}
              maxLength={TEAM_MAX_LENGTH}
              autoComplete="off"
              onChange={(event) => onField('home', event.target.value)}
            />
          </FormField>
          <FormField label="Away team" error={errors.away}>
            <Input
              value={draft.away}
              maxLength={TEAM_MAX_LENGTH}
              autoComplete="off"
              onChange={(event) => onField('away', event.target.value)}
            />
          </FormField>
          <FormField
            label="Start"
            className="sm:col-span-2"
            hint={`Your local time (${zoneLabel()}), within ${SELF_REPORTED_MAX_DAYS} days`}
            error={errors.startsAt}
          >
            <Input
              type="datetime-local"
              value={draft.startsLocal}
              min={isoToLocalInput(now.toISOString())}
              max={isoToLocalInput(latestStart.toISOString())}
              onChange={(event) => onField('startsLocal', event.target.value)}
            />
          </FormField>
        </div>
      )}
    </div>
  );
}
