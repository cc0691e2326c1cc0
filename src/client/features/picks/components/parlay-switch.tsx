import { useId } from 'react';
import { Switch } from 'radix-ui';
import { Label } from '#client/components/ui/label.tsx';

/** A pick of two legs or more may be a parlay (all legs must win). */
export function ParlaySwitch({
  checked,
  onCheckedChange,
  disabled,
}: {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex min-h-12 items-center justify-between gap-4 rounded-lg border bg-card px-3 py-2">
      <Label htmlFor={id} className="cursor-pointer leading-snug">
        Parlay (all legs must win)
      </Label>
      <Switch.Root
        id={id}
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        className="relative inline-flex h-7 w-12 shrink-0 cursor-pointer items-center rounded-full bg-input transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-60 data-[state=checked]:bg-primary"
      >
        <Switch.Thumb className="block size-5 translate-x-1 rounded-full bg-card shadow-sm transition-transform data-[state=checked]:translate-x-6" />
      </Switch.Root>
    </div>
  );
}
