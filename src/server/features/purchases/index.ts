// The purchases feature's public entry: its routes; what a payment records and takes back, and the reads it
// checks; the sales totals the earnings ledger adds up.
export { purchaseRoutes } from './routes.js';
export {
  findPurchaseByPaymentIntent,
  ownsVideo,
  recordPurchase,
  revokePurchaseOfPayment,
  salesTotals,
} from './purchases-service.js';
