// The earnings feature's public entry: what the dashboard shows of a capper's money.
export { useEarnings } from './api/get-earnings';
export { EarningsTile } from './components/earnings-tile';
export { PayoutRequests } from './components/payout-requests';
