// The follows feature's public entry: the Follow button, for the capper's storefront and the pick page.
// The Following page is the router's.
export { FollowButton } from './components/follow-button';
