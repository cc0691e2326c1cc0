// How Node is started for the server: `npm start` (package.json), `npm run dev`, the deployment's units
// (deploy/*.service) and the bench all start it with these flags (a unit test keeps them in step).
// - --liftoff-only: PostgreSQL's WebAssembly compiled once, by the baseline compiler (decision 002).
// - --max-old-space-size=512: with a ceiling under 1 GB, V8 collects the old generation sooner instead of
//   letting it grow to several times its live data under load (decision 002 has its cost).
export const SERVER_NODE_FLAGS = ['--liftoff-only', '--max-old-space-size=512'];
