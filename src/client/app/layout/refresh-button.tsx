import { useEffect, useRef, useState } from 'react';
import { RefreshCw } from 'lucide-react';
import { NAV_REFRESH_SPIN_MS } from '#common/constants.js';
import { Button } from '#client/components/ui/button.tsx';
import { cn } from '#client/lib/cn.ts';

// spec 2: reloads the page; the icon spins for one second.
export function RefreshButton({ className }: { className?: string }) {
  const [spinning, setSpinning] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const refresh = () => {
    setSpinning(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setSpinning(false), NAV_REFRESH_SPIN_MS);
    window.location.reload();
  };

  return (
    <Button
      variant="ghost"
      size="icon"
      onClick={refresh}
      aria-label="Refresh page"
      title="Refresh page"
      className={className}
    >
      <RefreshCw aria-hidden className={cn('size-5!', spinning && 'animate-spin')} />
    </Button>
  );
}
