import './lib/zod-jitless'; // first: before any module builds a schema
import { StrictMode, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lost its #root element');

// On `/` the root already holds the prerendered first paint (docs/decisions/012): rendering replaces it with
// the same markup. Not hydrated on purpose: a difference (the signed-in navbar) is then never an error.
// Once it has, the home page's loader replays what the visitor did to the inert markup (home-boot.js).
// In a layout effect, before the first paint of the app: no key or click can land between React's render
// and the replay (an Enter after a search typed early would otherwise reach a box that lost its focus).
function Ready() {
  useLayoutEffect(() => {
    window.dispatchEvent(new Event('pickreel:ready'));
  }, []);
  return null;
}

createRoot(root).render(
  <StrictMode>
    <App />
    <Ready />
  </StrictMode>,
);
