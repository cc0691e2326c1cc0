// The purchases feature's public entry (issue 13): what the dashboard shows of a bettor's purchases.
export { usePurchases } from './api/get-purchases';
export { PurchaseCard } from './components/purchase-card';
export { RefundedPayments } from './components/refunded-payments';
