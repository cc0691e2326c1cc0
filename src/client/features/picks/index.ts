// The picks feature's public entry (issue 14).
export { PickSealPanel, UNVERIFIED_PICK_TEXT } from './components/pick-seal-panel';
export { pickQueryKey } from './api/get-pick';
