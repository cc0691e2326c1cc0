// The purchases feature's public entry: its routes; the records a payment writes and reads;
// the sales totals the earnings ledger adds up.
export { purchaseRoutes } from './routes.js';
export {
  findPurchaseByPaymentIntent,
  ownsVideo,
  recordPurchase,
  revokePurchase,
  salesTotals,
} from './purchases-repository.js';
