// The earnings feature's public entry: its routes, and the admin's bonus and payout decisions, checked
// against the ledger under the same lock as a payout request.
export { earningsRoutes } from './routes.js';
export { decidePayoutRequest, setManualEarnings, toPayoutRequest } from './earnings-service.js';
