import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { Footer } from './footer';
import { Navbar } from './navbar';
import { useFocusHeadingOnNavigation } from './use-route-focus';

export function AppLayout({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  // A new page starts at its top, as it would with full page loads. Not on the first render: the page
  // just loaded, and a visitor may already have scrolled the prerendered home page (decision 012).
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (shown.current !== null && shown.current !== location) window.scrollTo(0, 0);
    shown.current = location;
  }, [location]);
  useFocusHeadingOnNavigation(location, 'main');

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-primary px-4 py-2 font-semibold text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <Navbar />
      {/* At least a screen tall, so the footer starts below the fold: a page that grows as it loads never
          pushes it down in view (no layout shift). */}
      <main id="main" tabIndex={-1} className="min-h-svh flex-1 focus:outline-none">
        {children}
      </main>
      <Footer />
    </div>
  );
}
