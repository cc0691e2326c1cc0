// The promos feature's public entry: the capper's promo codes section on the dashboard.
export { PromoCodesSection } from './components/promo-codes-section';
