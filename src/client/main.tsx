import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lost its #root element');

// On `/` the root already holds the prerendered first paint (docs/decisions/012): rendering replaces it with
// the same markup. Not hydrated on purpose: a difference (the signed-in navbar) is then never an error.
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
