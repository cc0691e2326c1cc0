// The picks feature's public entry: its routes for the app; preparing, sealing, revising and removing a
// pick for the videos and uploads features, inside their own transactions; the market's sync for the app.
export { pickRoutes } from './routes.js';
export { resultsRoutes } from './results-routes.js';
export { FileResultsProvider, runResultsImport, type ResultsProvider } from './results-feed.js';
export {
  currentLegs,
  holdPickForSale,
  postPick,
  preparePick,
  removePick,
  removePicksOfCapper,
  revisePick,
  salesClosed,
  SALES_CLOSED_MESSAGE,
  type PickContent,
  type PreparedPick,
} from './picks-service.js';
// Results of games already played, recorded at once at their own times (a history a feed catches up on).
export { recordPastResults, type PastResult } from './grading-service.js';
export { MarketSync, useMarket, marketOf, type ScoresSource, type TickSummary } from './market-sync.js';
export { backfillPickLog } from './log-backfill.js';
// A buyer's receipt shows each leg's state as the pick's own views do.
export { legStateViews } from './picks-service.js';
