import { lazy, Suspense, useRef, useState } from 'react';
import { Menu } from 'lucide-react';
import type { User } from '#common/schemas/auth.js';
import { Button } from '#client/components/ui/button.tsx';

const loadSheet = () => import('./mobile-nav-sheet');
const MobileNavSheet = lazy(async () => ({ default: (await loadSheet()).MobileNavSheet }));

/**
 * spec 2: on small screens the navigation bar's items sit in a side drawer. The drawer (Radix Dialog and its
 * focus and scroll locking) is fetched on first use, so the home page does not pay for it up front.
 */
export function MobileNav({ user }: { user: User | null }) {
  const [open, setOpen] = useState(false);
  // Once opened the sheet stays mounted, so it can animate closed and reopen instantly.
  const [wanted, setWanted] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const prefetch = () => void loadSheet();

  return (
    <>
      <Button
        ref={triggerRef}
        variant="ghost"
        size="icon"
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={open}
        className="md:hidden"
        onPointerEnter={prefetch}
        onFocus={prefetch}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
      >
        <Menu aria-hidden className="size-6!" />
      </Button>
      {wanted && (
        <Suspense fallback={null}>
          <MobileNavSheet user={user} open={open} onOpenChange={setOpen} triggerRef={triggerRef} />
        </Suspense>
      )}
    </>
  );
}
