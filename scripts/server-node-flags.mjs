// How Node is started for the server: `npm start` (package.json), `npm run dev`, the deployment's units
// (deploy/*.service) and the bench all start it with these flags (a unit test keeps them in step).
// - --liftoff-only: PostgreSQL's WebAssembly compiled once, by the baseline compiler (~70 MB less; decision 002).
// - --max-old-space-size=512: with a ceiling under 1 GB, V8 collects the old generation at ~1.5 × its live
//   data instead of letting it grow to ~4 × (200 clients of mixed traffic: by hand 268-297 MB
//   without it, 245-250 MB with it; the bench 281-309 without, 254-277 with; decision 002 has its cost).
export const SERVER_NODE_FLAGS = ['--liftoff-only', '--max-old-space-size=512'];
