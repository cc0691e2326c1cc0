// The subscriptions feature's public entry (docs/decisions/037): its routes, the renewal sweep, the grant
// of new picks to subscribers (a durable subscriber of pick.posted and its job), and the revenue the
// capper's ledger adds.
export { subscriptionRoutes } from './routes.js';
export { subscriptionRevenue, sweepSubscriptions } from './subscriptions-service.js';
export {
  grantPicksToSubscribers,
  handlePickAccess,
  pickAccessJob,
  subscriptionCovers,
} from './access-grants.js';
export { applyBillingEvent } from './stripe-billing-service.js';
