// The promos feature's public entry (docs/decisions/039): its routes, and the use-cases payments and
// subscriptions take codes through.
export { promoRoutes } from './routes.js';
export {
  discountCents,
  promoOfPayment,
  quotePromo,
  redeemPromo,
  redeemReservedPromo,
  reservePromo,
  type PromoApplied,
} from './promos-service.js';
