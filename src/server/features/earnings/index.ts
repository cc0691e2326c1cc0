// The earnings feature's public entry: its routes, and the ledger that the admin's bonus and
// payout decisions check under the same lock as a payout request.
export { earningsRoutes } from './routes.js';
export { decidePayoutRequest, ledger, setManualEarnings, toPayoutRequest } from './earnings-service.js';
export { lockUserBalance } from './earnings-repository.js';
