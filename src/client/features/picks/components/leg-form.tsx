import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import {
  LEAGUES,
  MARKETS,
  MAX_UNITS,
  MIN_UNITS,
  SIDE_MAX_LENGTH,
  type League,
  type Leg,
  type Market,
} from '#common/schemas/picks.js';
import { Button } from '#client/components/ui/button.tsx';
import { FormField } from '#client/components/ui/form-field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { NativeSelect } from '#client/components/ui/native-select.tsx';
import { useEvents, type EventView } from '../api/get-events';
import {
  draftFromLeg,
  emptyDraft,
  formatStake,
  isoToLocalInput,
  MARKET_LABELS,
  marketHasLine,
  marketOnTeam,
  sameGame,
  validateDraft,
  type LegDraft,
  type LegFieldErrors,
} from '../lib/legs';
import { ChoiceGroup } from './choice-group';
import { EventPicker } from './event-picker';

const TOTAL_CHOICES = [
  { value: 'over', label: 'Over' },
  { value: 'under', label: 'Under' },
];

/** What the side becomes when the market or the game changes: kept only where it still makes sense. */
function sideFor(market: Market, previous: Market, side: string, teams: [string, string]): string {
  if (marketOnTeam(market)) return teams.includes(side) && side !== '' ? side : '';
  if (market === 'total') return side === 'over' || side === 'under' ? side : '';
  return marketOnTeam(previous) || previous === 'total' ? '' : side;
}

/**
 * One leg's form (issue 14), inline in the pick form (a nested <form> is not allowed): league, then the
 * game, then the market and its terms, odds and stake. Checked by the server's own LegInputSchema.
 */
export function LegForm({
  title,
  leg,
  defaultUnits,
  stake,
  onSave,
  onCancel,
}: {
  title: string;
  /** The leg being edited, or null for a new one. */
  leg: Leg | null;
  /** A new leg's stake, as the last one (a capper often bets the same). */
  defaultUnits: number;
  /** A parlay's legs share one stake, set beside the switch: the form then shows it, not a field. */
  stake: number | null;
  onSave: (leg: Leg) => void;
  onCancel: () => void;
}) {
  const headingId = useId();
  const container = useRef<HTMLDivElement>(null);
  const leagueSelect = useRef<HTMLSelectElement>(null);
  const [draft, setDraft] = useState<LegDraft>(() =>
    leg ? draftFromLeg(leg, 'new') : emptyDraft(defaultUnits),
  );
  const [errors, setErrors] = useState<LegFieldErrors>({});
  const [attempted, setAttempted] = useState(false);
  const [focusInvalid, setFocusInvalid] = useState(0);
  const events = useEvents(draft.league);
  const [matched, setMatched] = useState(false);

  // Opened: the first field takes the focus (the editor gives it back when the form closes).
  useEffect(() => leagueSelect.current?.focus(), []);

  // A saved leg reopened: its game is the known event when there is one (the key the server uses). Set
  // while rendering, once the events are there (React's "adjust state when a prop changes" pattern).
  if (!matched && leg && events.data) {
    setMatched(true);
    const event = events.data.find((candidate) => sameGame(candidate, leg));
    if (event && draft.eventId === 'new') setDraft({ ...draft, eventId: event.id });
  }

  useEffect(() => {
    if (!focusInvalid) return;
    container.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusInvalid]);

  const withStake = (next: LegDraft) => (stake === null ? next : { ...next, units: String(stake) });

  const update = (next: LegDraft) => {
    setDraft(next);
    // After a first Save, the messages follow the typing.
    if (attempted) {
      const result = validateDraft(withStake(next), new Date());
      setErrors(result.ok ? {} : result.errors);
    }
  };

  const set = <K extends keyof LegDraft>(field: K, value: LegDraft[K]) =>
    update({ ...draft, [field]: value });

  const chooseLeague = (league: string) =>
    update({
      ...draft,
      league: league as League | '',
      eventId: null,
      home: '',
      away: '',
      startsLocal: '',
      side: marketOnTeam(draft.market) ? '' : draft.side,
    });

  const chooseEvent = (event: EventView | 'new') => {
    if (event === 'new') {
      const fromKnown = typeof draft.eventId === 'number';
      update({
        ...draft,
        eventId: 'new',
        ...(fromKnown && { home: '', away: '', startsLocal: '' }),
        side: marketOnTeam(draft.market) && fromKnown ? '' : draft.side,
      });
      return;
    }
    update({
      ...draft,
      eventId: event.id,
      home: event.home,
      away: event.away,
      startsLocal: isoToLocalInput(event.startsAt),
      side: sideFor(draft.market, draft.market, draft.side, [event.home, event.away]),
    });
  };

  const chooseMarket = (value: string) => {
    const market = value as Market;
    update({
      ...draft,
      market,
      side: sideFor(market, draft.market, draft.side, [draft.home, draft.away]),
      line: marketHasLine(market) ? draft.line : '',
    });
  };

  const save = () => {
    setAttempted(true);
    const result = validateDraft(withStake(draft), new Date());
    if (result.ok) {
      onSave(result.leg);
      return;
    }
    setErrors(result.errors);
    setFocusInvalid((count) => count + 1);
  };

  // Enter in a field saves the leg instead of submitting the whole upload form around it.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
      return;
    }
    if (event.key !== 'Enter' || !(event.target instanceof HTMLInputElement)) return;
    event.preventDefault();
    if (event.target.type !== 'search') save();
  };

  const teamsKnown = draft.home.trim() !== '' && draft.away.trim() !== '';

  return (
    <div
      ref={container}
      role="group"
      aria-labelledby={headingId}
      onKeyDown={onKeyDown}
      className="grid gap-5 rounded-card border border-primary/40 bg-background p-4"
      data-testid="leg-form"
    >
      <h3 id={headingId} className="text-base font-semibold">
        {title}
      </h3>
      <FormField label="League" error={errors.league}>
        <NativeSelect
          ref={leagueSelect}
          value={draft.league}
          onChange={(event) => chooseLeague(event.target.value)}
        >
          <option value="">Choose a league</option>
          {LEAGUES.map((league) => (
            <option key={league} value={league}>
              {league}
            </option>
          ))}
        </NativeSelect>
      </FormField>

      {draft.league && (
        <EventPicker
          league={draft.league}
          draft={draft}
          errors={errors}
          onChoose={chooseEvent}
          onField={(field, value) => set(field, value)}
        />
      )}

      <FormField label="Market" error={errors.market}>
        <NativeSelect value={draft.market} onChange={(event) => chooseMarket(event.target.value)}>
          {MARKETS.map((market) => (
            <option key={market} value={market}>
              {MARKET_LABELS[market]}
            </option>
          ))}
        </NativeSelect>
      </FormField>

      {marketOnTeam(draft.market) ? (
        teamsKnown ? (
          <ChoiceGroup
            legend="Pick"
            name="leg-side"
            choices={[
              { value: draft.away, label: `${draft.away} (away)` },
              { value: draft.home, label: `${draft.home} (home)` },
            ]}
            value={draft.side}
            onChange={(side) => set('side', side)}
            error={errors.side}
          />
        ) : (
          <p className="text-sm text-muted-foreground">Choose the game first, then the team.</p>
        )
      ) : draft.market === 'total' ? (
        <ChoiceGroup
          legend="Pick"
          name="leg-side"
          choices={TOTAL_CHOICES}
          value={draft.side}
          onChange={(side) => set('side', side)}
          error={errors.side}
        />
      ) : (
        <FormField label="The bet" hint="e.g. LeBron James over 7.5 assists" error={errors.side}>
          <Input
            value={draft.side}
            maxLength={SIDE_MAX_LENGTH}
            autoComplete="off"
            onChange={(event) => set('side', event.target.value)}
          />
        </FormField>
      )}

      <div className="grid gap-5 sm:grid-cols-3">
        {marketHasLine(draft.market) && (
          <FormField
            label="Line"
            hint={draft.market === 'spread' ? 'e.g. -3.5 or +4.5' : 'e.g. 220.5'}
            error={errors.line}
          >
            <Input
              type="number"
              inputMode="decimal"
              step={0.5}
              value={draft.line}
              onChange={(event) => set('line', event.target.value)}
            />
          </FormField>
        )}
        <FormField label="Odds" hint="American, e.g. -110 or +150" error={errors.odds}>
          <Input
            // Text, not number: '+150' is how odds are written, and a phone's number pad has no minus.
            type="text"
            autoComplete="off"
            spellCheck={false}
            placeholder="-110"
            value={draft.odds}
            onChange={(event) => set('odds', event.target.value)}
          />
        </FormField>
        {stake === null ? (
          <FormField label="Units" hint={`${MIN_UNITS} to ${MAX_UNITS}`} error={errors.units}>
            <Input
              type="number"
              inputMode="decimal"
              min={MIN_UNITS}
              max={MAX_UNITS}
              step={0.1}
              value={draft.units}
              onChange={(event) => set('units', event.target.value)}
            />
          </FormField>
        ) : (
          <p className="self-end text-sm text-muted-foreground">
            Parlay stake: {formatStake(stake)} (set below the legs)
          </p>
        )}
      </div>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="outline" size="lg" onClick={onCancel}>
          Cancel
        </Button>
        <Button size="lg" onClick={save}>
          Save leg
        </Button>
      </div>
    </div>
  );
}
