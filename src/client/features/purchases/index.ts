// The purchases feature's public entry: what the dashboard shows of a bettor's purchases, and the
// query keys a completed payment refreshes.
export { PURCHASES_QUERY_KEY, usePurchases } from './api/get-purchases';
export { REFUNDS_QUERY_KEY } from './api/get-refunds';
export { PurchaseCard } from './components/purchase-card';
export { RefundedPayments } from './components/refunded-payments';
// After paying: the buyer's selections at the top of the pick's page, and their results on the dashboard.
export { YourSelections } from './components/your-selections';
export { PurchaseResultsSummary } from './components/purchase-results';
export { useVideoSales } from './api/get-video-sales';
export { OutcomeChip } from './components/outcome-chip';
