// The pick log feature's public entry: the video page's panel. The /log page is loaded by the
// router on its own.
export { PickLogPanel } from './components/pick-log-panel';
