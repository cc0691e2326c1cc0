// A local stand-in of The Odds API v4 on its own port (docs/decisions/025): what the browser tests point the
// server at (ODDS_API_URL, ODDS_API_KEY), and what a developer can run beside `npm run dev`. Needs the built
// server (`npm run build:server`). Settings: STAND_IN_PORT (default 5099), STAND_IN_KEY (default
// 'stand-in-key'), STAND_IN_DEMO=true for the demo's rolling schedule (anchored at start). Its controls
// (add a game, set prices and scores, go down) are POST /__stand-in/<control> with the key's header.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { startMarketStandIn } = await import(
  pathToFileURL(path.join(root, 'dist/node/server/features/market/stand-in.js')).href
);
const standIn = await startMarketStandIn({
  port: Number(process.env.STAND_IN_PORT ?? 5099),
  apiKey: process.env.STAND_IN_KEY ?? 'stand-in-key',
  ...(process.env.STAND_IN_DEMO === 'true' && {
    demo: { anchor: new Date(), leagues: ['NFL', 'NBA', 'MLB', 'NHL'] },
  }),
});
console.log(`market stand-in: ${standIn.url} (key ${standIn.apiKey})`);
const stop = () => standIn.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
