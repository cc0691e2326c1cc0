import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { BadgeCheck, PenLine } from 'lucide-react';
import type { PricedMarket } from '#common/market.js';
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
import { appConfig } from '#client/lib/app-config.ts';
import { useEventPrices } from '../api/get-event-prices';
import { useEvents, type EventView } from '../api/get-events';
import {
  draftFromLeg,
  draftKey,
  emptyDraft,
  followsMarket,
  formatStake,
  isoToLocalInput,
  legsContradiction,
  MARKET_LABELS,
  marketHasLine,
  marketOnTeam,
  marketPriceProblem,
  offerOf,
  offersFor,
  sameGame,
  SELF_REPORTED_TEXT,
  signed,
  validateDraft,
  type LegDraft,
  type LegFieldErrors,
  type Offer,
} from '../lib/legs';
import { ChoiceGroup } from './choice-group';
import { EventPicker } from './event-picker';
import { MarketPrices } from './market-prices';

const TOTAL_CHOICES = [
  { value: 'over', label: 'Over' },
  { value: 'under', label: 'Under' },
];

export const MARKET_ODDS_HINT =
  'Leave empty to take the best price when you post; you may enter a worse price, never a better one.';

/** What the side becomes when the market or the game changes: kept only where it still makes sense. */
function sideFor(market: Market, previous: Market, side: string, teams: [string, string]): string {
  if (marketOnTeam(market)) return teams.includes(side) && side !== '' ? side : '';
  if (market === 'total') return side === 'over' || side === 'under' ? side : '';
  return marketOnTeam(previous) || previous === 'total' ? '' : side;
}

/**
 * One leg's form (docs/decisions/020, 025), inline in the pick form (a nested <form> is not allowed):
 * league and market, then the game, then the bet and its price, and the stake. A moneyline, spread or total
 * in a league the market follows is on one of the market's games at one of its prices; anything else is
 * self-reported, as before. Checked by the server's own LegInputSchema, and against the other legs.
 */
export function LegForm({
  title,
  leg,
  otherLegs,
  defaultUnits,
  stake,
  onSave,
  onCancel,
}: {
  title: string;
  /** The leg being edited, or null for a new one. */
  leg: Leg | null;
  /** The pick's other legs, which this one must not contradict. */
  otherLegs: readonly Leg[];
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
    leg ? draftFromLeg(leg, leg.eventId ?? 'new') : emptyDraft(defaultUnits),
  );
  const [errors, setErrors] = useState<LegFieldErrors>({});
  const [attempted, setAttempted] = useState(false);
  const [focusInvalid, setFocusInvalid] = useState(0);
  const events = useEvents(draft.league);
  const [matched, setMatched] = useState(false);
  const { marketLeagues } = appConfig;
  const bound =
    draft.league !== '' && followsMarket({ league: draft.league, market: draft.market }, marketLeagues);
  const eventId = bound && typeof draft.eventId === 'number' ? draft.eventId : null;
  const prices = useEventPrices(eventId);
  const offers = bound ? offersFor(prices.data, draft.market) : [];

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

  /** What is wrong as soon as it is typed: a contradiction with another leg, a price the market refuses. */
  const liveProblems = (next: LegDraft): LegFieldErrors => {
    const problems: LegFieldErrors = {};
    const key = draftKey(next);
    const contradiction = key && legsContradiction([...otherLegs, key]);
    if (contradiction) problems.side = contradiction;
    const nextBound =
      next.league !== '' && followsMarket({ league: next.league, market: next.market }, marketLeagues);
    if (nextBound && typeof next.eventId === 'number' && next.eventId === eventId) {
      const problem = marketPriceProblem(offers, next);
      if (problem) problems[problem.field] ??= problem.message;
    }
    return problems;
  };

  const update = (next: LegDraft) => {
    setDraft(next);
    // After a first Save, the messages follow the typing.
    if (attempted) {
      const result = validateDraft(withStake(next), new Date(), marketLeagues);
      setErrors(result.ok ? {} : result.errors);
    }
  };

  const set = <K extends keyof LegDraft>(field: K, value: LegDraft[K]) =>
    update({ ...draft, [field]: value });

  const clearedGame = { eventId: null, home: '', away: '', startsLocal: '' } as const;

  const chooseLeague = (league: string) =>
    update({
      ...draft,
      ...clearedGame,
      league: league as League | '',
      side: marketOnTeam(draft.market) ? '' : draft.side,
      line: '',
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
      // Each game has its own lines.
      line: bound ? '' : draft.line,
    });
  };

  const chooseMarket = (value: string) => {
    const market = value as Market;
    const nextBound = draft.league !== '' && followsMarket({ league: draft.league, market }, marketLeagues);
    // A game the capper added is not one of the market's: a market leg chooses again from its list.
    const game = nextBound && draft.eventId === 'new' ? clearedGame : {};
    update({
      ...draft,
      ...game,
      market,
      // A market leg's side and line are one of the new market's prices, chosen again.
      side: nextBound ? '' : sideFor(market, draft.market, draft.side, [draft.home, draft.away]),
      line: marketHasLine(market) && !nextBound ? draft.line : '',
    });
  };

  const chooseOffer = (offer: Offer) =>
    update({ ...draft, side: offer.side, line: offer.line === null ? '' : String(offer.line) });

  const save = () => {
    setAttempted(true);
    const result = validateDraft(withStake(draft), new Date(), marketLeagues);
    const live = liveProblems(draft);
    if (result.ok && Object.keys(live).length === 0) {
      onSave(result.leg);
      return;
    }
    setErrors(result.ok ? {} : result.errors);
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

  // The schema's messages first; what is told live fills the rest.
  const shown: LegFieldErrors = { ...liveProblems(draft), ...errors };
  const teamsKnown = draft.home.trim() !== '' && draft.away.trim() !== '';
  const offer = bound ? offerOf(offers, draft) : undefined;

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
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField label="League" error={shown.league}>
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
        <FormField label="Market" error={shown.market}>
          <NativeSelect value={draft.market} onChange={(event) => chooseMarket(event.target.value)}>
            {MARKETS.map((market) => (
              <option key={market} value={market}>
                {MARKET_LABELS[market]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
      </div>

      {draft.league && <BindingNote bound={bound} league={draft.league} market={draft.market} />}

      {draft.league && (
        <EventPicker
          league={draft.league}
          marketOnly={bound}
          draft={draft}
          errors={shown}
          onChoose={chooseEvent}
          onField={(field, value) => set(field, value)}
        />
      )}

      {bound ? (
        eventId !== null ? (
          <MarketPrices
            eventId={eventId}
            market={draft.market as PricedMarket}
            home={draft.home}
            away={draft.away}
            side={draft.side}
            line={draft.line}
            error={shown.side ?? shown.line}
            onChoose={chooseOffer}
          />
        ) : (
          <p className="text-sm text-muted-foreground">Choose the game first, then its price.</p>
        )
      ) : marketOnTeam(draft.market) ? (
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
            error={shown.side}
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
          error={shown.side}
        />
      ) : (
        <FormField label="The bet" hint="e.g. LeBron James over 7.5 assists" error={shown.side}>
          <Input
            value={draft.side}
            maxLength={SIDE_MAX_LENGTH}
            autoComplete="off"
            onChange={(event) => set('side', event.target.value)}
          />
        </FormField>
      )}

      <div className="grid gap-5 sm:grid-cols-3">
        {marketHasLine(draft.market) && !bound && (
          <FormField
            label="Line"
            hint={draft.market === 'spread' ? 'e.g. -3.5 or +4.5' : 'e.g. 220.5'}
            error={shown.line}
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
        <FormField
          label={bound ? 'Odds (optional)' : 'Odds'}
          className={bound ? 'sm:col-span-2' : undefined}
          hint={
            bound
              ? offer
                ? `${MARKET_ODDS_HINT} Best now: ${signed(offer.odds)} at ${offer.book}.`
                : MARKET_ODDS_HINT
              : 'American, e.g. -110 or +150'
          }
          error={shown.odds}
        >
          <Input
            // Text, not number: '+150' is how odds are written, and a phone's number pad has no minus.
            type="text"
            autoComplete="off"
            spellCheck={false}
            placeholder={bound ? (offer ? signed(offer.odds).replace('−', '-') : 'Best price') : '-110'}
            value={draft.odds}
            onChange={(event) => set('odds', event.target.value)}
          />
        </FormField>
        {stake === null ? (
          <FormField label="Units" hint={`${MIN_UNITS} to ${MAX_UNITS}`} error={shown.units}>
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

/** Whether the leg will count: on the market's game and price, or self-reported (and why). */
function BindingNote({ bound, league, market }: { bound: boolean; league: League; market: Market }) {
  if (bound) {
    return (
      <p
        className="flex items-start gap-2 rounded-lg bg-primary/5 px-3 py-2 text-sm text-foreground"
        data-testid="leg-binding"
      >
        <BadgeCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-primary" />
        <span>Games and prices come from the market: this leg counts in your verified record.</span>
      </p>
    );
  }
  const why =
    market === 'prop' || market === 'other'
      ? 'Props and other bets are not priced by the market.'
      : appConfig.marketLeagues.length
        ? `The market does not follow ${league}.`
        : 'No market prices this site’s picks.';
  return (
    <p
      className="flex items-start gap-2 rounded-lg border border-amber-500/40 bg-amber-50 px-3 py-2 text-sm text-amber-950"
      data-testid="leg-binding"
    >
      <PenLine aria-hidden className="mt-0.5 size-4 shrink-0" />
      <span>
        <span className="font-semibold">{SELF_REPORTED_TEXT}.</span> {why}
      </span>
    </p>
  );
}
