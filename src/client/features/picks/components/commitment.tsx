import { CopyText } from '#client/components/ui/copy-text.tsx';

/** A commitment in full: 64 hex characters in monospace that wrap on a phone, with a copy button. */
export function Commitment({
  value,
  label,
  className,
}: {
  value: string;
  label: string;
  className?: string;
}) {
  return <CopyText value={value} label={label} testId="commitment" className={className} />;
}
