import { lazy, Suspense, useEffect, useState } from 'react';
import { useToast } from './use-toast';

// Radix's toast code (~7 KB of gzip) comes with the first toast or the first F8, not with every page's
// first load (the home page's 110 KB budget, issue 2).
const loadToastRegion = () => import('./toast-region');
const ToastRegion = lazy(loadToastRegion);
// Fetched at the first sign of a person at work (a key, a tap), so that a toast raised by what they do next
// shows at once instead of after a chunk's download (a form that moves on a second after its toast).
const INTERACTIONS = ['pointerdown', 'keydown', 'focusin'] as const;

export function Toaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState<'no' | 'toast' | 'f8'>('no');
  if (needed === 'no' && toasts.length > 0) setNeeded('toast');
  useEffect(() => {
    const preload = () => {
      for (const type of INTERACTIONS) window.removeEventListener(type, preload, true);
      void loadToastRegion();
    };
    for (const type of INTERACTIONS) window.addEventListener(type, preload, { capture: true, passive: true });
    return () => {
      for (const type of INTERACTIONS) window.removeEventListener(type, preload, true);
    };
  }, []);
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
