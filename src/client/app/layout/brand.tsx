import { Link } from 'wouter';
import { Play } from 'lucide-react';
import { PRODUCT_NAME } from '#common/constants.js';
import { cn } from '#client/lib/cn.ts';

export function BrandMark({ className }: { className?: string }) {
  return (
    <span
      aria-hidden
      className={cn(
        'inline-flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground shadow-sm',
        className,
      )}
    >
      <Play className="size-4 translate-x-px fill-current" />
    </span>
  );
}

export function BrandLink({ className, onClick }: { className?: string; onClick?: () => void }) {
  return (
    <Link
      href="/"
      onClick={onClick}
      className={cn(
        'inline-flex items-center gap-2 rounded-lg text-xl font-extrabold tracking-tight',
        className,
      )}
    >
      <BrandMark />
      <span>{PRODUCT_NAME}</span>
    </Link>
  );
}
