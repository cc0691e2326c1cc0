import type { ComponentProps } from 'react';
import { cn } from '#client/lib/cn.ts';

/**
 * A person's picture, or the first letter of their name on the brand colour (spec 2's avatar). Decorative:
 * the name is always written beside it. Size and type size come from `className` (e.g. `size-8 text-xs`).
 */
export function Avatar({
  name,
  src,
  className,
  ...props
}: { name: string; src?: string | null; className?: string } & Omit<ComponentProps<'span'>, 'children'>) {
  if (src) return <img src={src} alt="" className={cn('shrink-0 rounded-full object-cover', className)} />;
  return (
    <span
      aria-hidden
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-full bg-primary font-bold text-primary-foreground',
        className,
      )}
      {...props}
    >
      {name.charAt(0).toUpperCase()}
    </span>
  );
}
