// The picks feature's public entry (issue 14): its routes for the app; sealing, revising and removing a
// pick for the videos and uploads features, inside their own transactions.
export { pickRoutes } from './routes.js';
export { resultsRoutes } from './results-routes.js';
export { FileResultsProvider, runResultsImport, type ResultsProvider } from './results-feed.js';
export { postPick, removePick, removePicksOfCapper, revisePick, type PickContent } from './picks-service.js';
export { recordGrades, type PickGradeUpdate } from './grading-service.js';
export { lockPickForSale } from './picks-repository.js';
export { backfillPickLog } from './log-backfill.js';
