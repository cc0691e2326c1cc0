// The picks feature's public entry.
export { PickSealPanel, UNVERIFIED_PICK_TEXT } from './components/pick-seal-panel';
export { pickQueryKey, usePick, type PickView } from './api/get-pick';
// The pick form's legs: the upload form and the edit page.
export { LegsEditor, OPEN_LEG_MESSAGE, type PickLegsValue } from './components/legs-editor';
export { legsFromSealed } from './lib/legs';
// Selling only what is secret (docs/decisions/028): the words of a title or description that give the pick away.
export { GiveawayNotice } from './components/giveaway-notice';
export { usePickLegs } from './api/get-pick-legs';
// The pick log's Verify: the reveal and its commitment check, done once here.
export { getPickReveal } from './api/get-pick-reveal';
export { verifyCommitment, type Verification } from './lib/verify';
// A pick's legs as the capper's page lists them: the price's evidence, the grade, the close (docs/decisions/025).
export { PickLegsList } from './components/pick-legs-list';
export { LegBindingTag } from './components/leg-binding-tag';
// A buyer's selections and receipt (purchases feature): the legs read, and the pick verified, as here.
export { Commitment } from './components/commitment';
export { VerifyButton } from './components/verify-button';
export { usePickReveal } from './api/get-pick-reveal';
export {
  describeBet,
  formatOdds,
  formatPickTime,
  LEG_STATUS_LABEL,
  legStatus,
  outcomeText,
  type LegStatus,
} from './components/pick-format';
