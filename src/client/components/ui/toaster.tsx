import { useEffect, useState } from 'react';
import type ToastRegion from './toast-region';
import { useToast } from './use-toast';

// Radix's toast code is not part of a page's first load (the home page's JavaScript budget): it is fetched at
// the first sign of a person at work (a key, a tap, a focus) or the first toast, and rendered without
// Suspense once here, so a toast raised later shows in the same render as it is raised (a form that moves on
// a second after its toast; Suspense would hold it back up to 300 ms).
type ToastRegionComponent = typeof ToastRegion;
let loading: Promise<ToastRegionComponent> | null = null;
const loadToastRegion = () => (loading ??= import('./toast-region').then((module) => module.default));
const INTERACTIONS = ['pointerdown', 'keydown', 'focusin'] as const;

export function Toaster() {
  const { toasts } = useToast();
  const [Region, setRegion] = useState<ToastRegionComponent | null>(null);
  // An F8 before the region was there: it focuses the notifications once they are (spec 9).
  const [f8, setF8] = useState(false);
  const wanted = toasts.length > 0;

  useEffect(() => {
    let gone = false;
    const load = () => {
      for (const type of INTERACTIONS) window.removeEventListener(type, load, true);
      void loadToastRegion().then((component) => {
        if (!gone) setRegion(() => component);
      });
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'F8') setF8(true);
    };
    if (wanted) load();
    else
      for (const type of INTERACTIONS) window.addEventListener(type, load, { capture: true, passive: true });
    window.addEventListener('keydown', onKeyDown);
    return () => {
      gone = true;
      for (const type of INTERACTIONS) window.removeEventListener(type, load, true);
      window.removeEventListener('keydown', onKeyDown);
    };
  }, [wanted]);

  return Region ? <Region focusOnMount={f8} /> : null;
}
