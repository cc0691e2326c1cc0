import { lazy, Suspense, useEffect, useState } from 'react';
import { useToast } from './use-toast';

// Radix's toast code (~7 KB of gzip) comes with the first toast or the first F8, not with every page's
// first load (the home page's 110 KB budget, issue 2).
const ToastRegion = lazy(() => import('./toast-region'));

export function Toaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState<'no' | 'toast' | 'f8'>('no');
  if (needed === 'no' && toasts.length > 0) setNeeded('toast');
  useEffect(() => {
    if (needed !== 'no') return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'F8') setNeeded('f8');
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [needed]);
  if (needed === 'no') return null;
  return (
    <Suspense fallback={null}>
      <ToastRegion focusOnMount={needed === 'f8'} />
    </Suspense>
  );
}
