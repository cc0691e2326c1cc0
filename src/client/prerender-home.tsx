// Build time only (scripts/prerender-home.mjs): the home page's first render as HTML, so a visitor sees the
// hero as soon as the HTML and CSS arrive, not after the JavaScript (LCP on a phone); and the
// shell every other page opens with, so their first paint does not wait for the code either.
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

/** A path no route of the client has: no link is current, and its page is lazily loaded. */
const SHELL_PATH = '/__shell';

/**
 * What the browser's first render of any page but `/` shows before its code arrives: the navigation bar and
 * footer of nobody signed in, and the page's loading spinner (its code is lazily loaded: Suspense's fallback).
 */
export function renderShell(): string {
  return renderToString(
    <Router ssrPath={SHELL_PATH}>
      <App />
    </Router>,
  );
}
