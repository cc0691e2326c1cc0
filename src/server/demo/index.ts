// The demo's entry for the app and scripts: what `npm start` offers at start, the history route, and what
// `npm run seed:demo` puts in. The demo is a client of the features (through their entries); none imports it.
export { prepareDemoOnStart } from './demo-on-start.js';
export { demoRoutes } from './demo-routes.js';
export { ensureDemoToken, readDemoToken } from './demo-token.js';
export { localUrl, seedDemo } from './demo-seed.js';
export { DEMO_CAPPERS, DEMO_PASSWORD, DEMO_USERNAMES, EXTERNAL_LINKS, MATCHUPS } from './demo-content.js';
export { seedDemoPicks } from './demo-picks-seed.js';
export { demoStandInAnchor } from './demo-market.js';
export { postDemoMarketPicks } from './demo-market-picks.js';
