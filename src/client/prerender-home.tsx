// Build time only (scripts/prerender-home.mjs): the home page's first render as HTML, so a visitor sees the
// hero as soon as the HTML and CSS arrive, not after the JavaScript (issue 3: LCP <= 1.5 s on mobile).
import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import { App } from './app/app';

/** What the browser's first render of `/` shows: nobody signed in yet, the catalog still loading. */
export function renderHome(): string {
  return renderToString(
    <Router ssrPath="/">
      <App />
    </Router>,
  );
}
