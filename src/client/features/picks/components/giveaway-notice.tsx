import { giveawayMessage, type GiveawayField } from '#common/pick-giveaway.js';

/**
 * Beside a pick's title or description: which words give the sealed pick away, said as the capper types
 * (docs/decisions/028). Always in the page, so a screen reader hears the message when it appears.
 */
export function GiveawayNotice({
  id,
  field,
  phrases,
}: {
  id: string;
  field: GiveawayField;
  phrases: readonly string[];
}) {
  return (
    <p
      id={id}
      aria-live="polite"
      data-testid={`giveaway-${field}`}
      className="mt-2 text-sm font-medium text-destructive empty:mt-0"
    >
      {phrases.length ? giveawayMessage(field, phrases) : ''}
    </p>
  );
}
