// The subscriptions feature's public entry: the storefront's plans and the capper's plan settings. Its
// pages (subscribe, the bettor's subscriptions) are the router's.
export { PlansSection } from './components/plans-section';
export { ManagePlans } from './components/manage-plans';
