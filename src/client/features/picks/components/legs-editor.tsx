import { useEffect, useId, useRef, useState } from 'react';
import { Plus } from 'lucide-react';
import { MAX_LEGS, MAX_UNITS, MIN_UNITS, TOO_MANY_LEGS_MESSAGE, type Leg } from '#common/schemas/picks.js';
import { Button } from '#client/components/ui/button.tsx';
import { FormField } from '#client/components/ui/form-field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { appConfig } from '#client/lib/app-config.ts';
import { followsMarket, legsContradiction, legSummary, parseStake } from '../lib/legs';
import { LegForm } from './leg-form';
import { LegRow } from './leg-row';
import { ParlaySwitch } from './parlay-switch';

/** A pick's legs and whether it is a parlay, as the upload and edit forms hold them. */
export interface PickLegsValue {
  legs: Leg[];
  parlay: boolean;
}

export const LEGS_HELP =
  'Legs are sealed when you post: buyers see a commitment now, the legs after the games are graded. Without legs the pick is sold as unverified.';
/** docs/decisions/025: one self-reported leg makes the whole pick self-reported. */
export const SELF_REPORTED_PICK_NOTE =
  'This pick has a self-reported leg: it will be shown on your profile as self-reported, never counted in your record.';
/** The pick form is sent while a leg is still open: say so rather than drop the leg. */
export const OPEN_LEG_MESSAGE = 'Save or cancel the leg you are editing first.';

type Editing = number | 'new' | null;

/**
 * The legs of a pick, on a phone as on a desktop: a summary row per leg with Edit and Remove,
 * one leg form at a time, and the parlay switch from two legs on (a parlay's legs share one stake).
 */
export function LegsEditor({
  value,
  onChange,
  onEditingChange,
  error,
  disabled = false,
  lockedReason,
}: {
  value: PickLegsValue;
  onChange: (value: PickLegsValue) => void;
  /** Whether a leg form is open, so the pick form can refuse to be sent with it. */
  onEditingChange?: (editing: boolean) => void;
  /** The pick-wide message: the schema's (a parlay's stake, a start passed) or the server's (409). */
  error?: string;
  /** While the pick form is being sent. */
  disabled?: boolean;
  /** The legs can no longer change (the pick has been sold or has started): why, shown instead of the controls. */
  lockedReason?: string;
}) {
  const { legs, parlay } = value;
  const helpId = useId();
  const errorId = useId();
  const root = useRef<HTMLFieldSetElement>(null);
  const [editing, setEditingState] = useState<Editing>(null);
  const [announcement, setAnnouncement] = useState('');
  const [stakeText, setStakeText] = useState<string | null>(null);
  const [stakeError, setStakeError] = useState<string | undefined>(undefined);
  // Where the focus goes once the leg form has closed (a selector inside the editor).
  const focusNext = useRef<string | null>(null);
  const readOnly = Boolean(lockedReason);

  const setEditing = (next: Editing) => {
    setEditingState(next);
    onEditingChange?.(next !== null);
  };

  useEffect(() => {
    if (editing !== null || !focusNext.current) return;
    const target =
      root.current?.querySelector<HTMLElement>(focusNext.current) ??
      root.current?.querySelector<HTMLElement>('[data-add-leg]');
    focusNext.current = null;
    target?.focus();
  });

  const closeTo = (selector: string) => {
    focusNext.current = selector;
    setEditing(null);
  };

  const stake = parlay && legs[0] ? legs[0].units : null;

  const save = (leg: Leg) => {
    if (editing === 'new') {
      onChange({ legs: [...legs, leg], parlay });
      setAnnouncement(`Leg ${legs.length + 1} added: ${legSummary(leg)}`);
      closeTo(legs.length + 1 < MAX_LEGS ? '[data-add-leg]' : `[data-leg-edit="${legs.length}"]`);
    } else if (typeof editing === 'number') {
      onChange({ legs: legs.map((current, index) => (index === editing ? leg : current)), parlay });
      setAnnouncement(`Leg ${editing + 1} saved: ${legSummary(leg)}`);
      closeTo(`[data-leg-edit="${editing}"]`);
    }
  };

  const cancel = () =>
    closeTo(typeof editing === 'number' ? `[data-leg-edit="${editing}"]` : '[data-add-leg]');

  const remove = (index: number) => {
    const next = legs.filter((_, position) => position !== index);
    // A parlay needs two legs: with one left it is a single bet again.
    onChange({ legs: next, parlay: parlay && next.length >= 2 });
    setAnnouncement(`Leg ${index + 1} removed.`);
    focusNext.current = next.length
      ? `[data-leg-edit="${Math.min(index, next.length - 1)}"]`
      : '[data-add-leg]';
    if (editing === index) setEditing(null);
  };

  const switchParlay = (on: boolean) => {
    setStakeText(null);
    setStakeError(undefined);
    if (!on || !legs[0]) return onChange({ legs, parlay: false });
    // The legs take the first leg's stake; the capper changes it in one place.
    const units = legs[0].units;
    onChange({ legs: legs.map((leg) => ({ ...leg, units })), parlay: true });
  };

  const changeStake = (text: string) => {
    setStakeText(text);
    if (!legs[0]) return;
    const result = parseStake(legs[0], text);
    if (!result.ok) return setStakeError(result.message);
    setStakeError(undefined);
    onChange({ legs: legs.map((leg) => ({ ...leg, units: result.units })), parlay: true });
  };

  const contradiction = legsContradiction(legs);
  const selfReported = legs.some((leg) => !followsMarket(leg, appConfig.marketLeagues));
  const describedBy = [helpId, error ? errorId : null].filter(Boolean).join(' ');

  return (
    <fieldset
      ref={root}
      className="grid min-w-0 gap-4 rounded-card border p-4"
      disabled={disabled}
      aria-describedby={describedBy}
      data-testid="legs-editor"
    >
      <legend className="px-1 text-sm font-semibold">Pick legs</legend>
      <p id={helpId} className="text-sm text-muted-foreground">
        {LEGS_HELP}
      </p>
      {lockedReason && (
        <p className="rounded-lg bg-muted px-3 py-2 text-sm" data-testid="legs-locked">
          {lockedReason}
        </p>
      )}

      {legs.length === 0 && editing !== 'new' && (
        <p className="text-sm font-medium">No legs: this pick will be sold as unverified.</p>
      )}
      {legs.length > 0 && (
        <ol aria-label="Legs" className="grid gap-2">
          {legs.map((leg, index) =>
            editing === index ? (
              <li key={index}>
                <LegForm
                  title={`Edit leg ${index + 1}`}
                  leg={leg}
                  otherLegs={legs.filter((_, position) => position !== index)}
                  defaultUnits={leg.units}
                  stake={stake}
                  onSave={save}
                  onCancel={cancel}
                />
              </li>
            ) : (
              <LegRow
                key={index}
                leg={leg}
                index={index}
                parlay={parlay}
                market={followsMarket(leg, appConfig.marketLeagues)}
                readOnly={readOnly || editing !== null}
                onEdit={() => setEditing(index)}
                onRemove={() => remove(index)}
              />
            ),
          )}
        </ol>
      )}

      {editing === 'new' && (
        <LegForm
          title={`Leg ${legs.length + 1}`}
          leg={null}
          otherLegs={legs}
          defaultUnits={legs.at(-1)?.units ?? 1}
          stake={stake}
          onSave={save}
          onCancel={cancel}
        />
      )}

      {contradiction && (
        <p role="alert" className="text-sm font-medium text-destructive" data-testid="legs-contradiction">
          {contradiction}
        </p>
      )}
      {selfReported && !readOnly && (
        <p className="rounded-lg border border-amber-500/40 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          {SELF_REPORTED_PICK_NOTE}
        </p>
      )}

      {legs.length >= 2 && (
        <div className="grid gap-3">
          <ParlaySwitch checked={parlay} onCheckedChange={switchParlay} disabled={readOnly || disabled} />
          {parlay && stake !== null && (
            <FormField
              label="Parlay stake (units)"
              hint={`One stake for the whole parlay, ${MIN_UNITS} to ${MAX_UNITS}`}
              error={stakeError}
            >
              <Input
                type="number"
                inputMode="decimal"
                min={MIN_UNITS}
                max={MAX_UNITS}
                step={0.1}
                readOnly={readOnly}
                value={stakeText ?? String(stake)}
                onChange={(event) => changeStake(event.target.value)}
                onBlur={() => {
                  if (!stakeError) setStakeText(null);
                }}
              />
            </FormField>
          )}
        </div>
      )}

      {!readOnly && editing === null && legs.length < MAX_LEGS && (
        <div>
          <Button
            variant="outline"
            size="lg"
            className="w-full sm:w-auto"
            data-add-leg
            onClick={() => setEditing('new')}
          >
            <Plus aria-hidden />
            Add leg
          </Button>
        </div>
      )}
      {legs.length >= MAX_LEGS && !readOnly && (
        <p className="text-sm text-muted-foreground">{TOO_MANY_LEGS_MESSAGE}.</p>
      )}

      {error && (
        <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
    </fieldset>
  );
}
