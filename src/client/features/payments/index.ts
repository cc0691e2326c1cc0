// The payments feature's public entry: the promo code field and the sandbox's card fields other checkouts
// reuse (the subscribe page). Its pages (checkout) are the router's.
export { PromoCodeField } from './components/promo-code-field';
export { SandboxCardFields, useSandboxCard, type SandboxCard } from './components/sandbox-card-fields';
