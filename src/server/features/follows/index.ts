// The follows feature's public entry (docs/decisions/035): its routes for the app. The alerts a follow
// brings are the notifications feature's; it reads the follows table in its fan-out.
export { followRoutes } from './routes.js';
