// The payments feature's public entry: the promo code field other checkouts reuse (the subscribe page). Its
// pages (checkout) are the router's.
export { PromoCodeField } from './components/promo-code-field';
