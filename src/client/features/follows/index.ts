// The follows feature's public entry: the Follow button, for the capper's storefront and the pick page, and
// the smaller one on cards.
// The Following page is the router's.
export { FollowButton } from './components/follow-button';
export { CardFollowSlot } from './components/card-follow-slot';
